// A minimal in-process CPU sampler for machines without perf: load with ctypes, start(period_us), run the
// work, dump(path). Samples come from a high-resolution POSIX timer on the calling thread's wall clock
// (not ITIMER_PROF, which ticks at HZ and gave a few hundred samples a second); each sample keeps a short
// backtrace, written as "object offset sym" frames separated by " | ", innermost first, for addr2line.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAXS (1 << 18)
#define DEPTH 10
static void* frames[MAXS][DEPTH];
static unsigned char depth[MAXS];
static volatile int npc;
static timer_t timer;
static int have_timer;

static void handler(int sig, siginfo_t* si, void* ctx) {
  (void)sig;
  (void)si;
  (void)ctx;
  if (npc >= MAXS) return;
  int n = npc;
  // backtrace() from a signal handler: its first call loads libgcc (done in sampler_start), later calls
  // only walk the unwind tables. Frame 0 is this handler, frame 1 the signal trampoline.
  void* buf[DEPTH + 2];
  int got = backtrace(buf, DEPTH + 2);
  int k = 0;
  for (int i = 2; i < got && k < DEPTH; ++i) frames[n][k++] = buf[i];
  depth[n] = (unsigned char)k;
  npc = n + 1;
}

void sampler_start(int period_us) {
  void* warm[4];
  backtrace(warm, 4);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGRTMIN, &sa, 0);
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGRTMIN;
  ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0) return;
  have_timer = 1;
  struct itimerspec it;
  it.it_interval.tv_sec = 0;
  it.it_interval.tv_nsec = (long)period_us * 1000;
  it.it_value = it.it_interval;
  timer_settime(timer, 0, &it, 0);
}

static void put(FILE* f, void* pc) {
  Dl_info d;
  if (dladdr(pc, &d) && d.dli_fname) {
    fprintf(f, "%s 0x%lx %s", d.dli_fname, (unsigned long)((uintptr_t)pc - (uintptr_t)d.dli_fbase),
            d.dli_sname ? d.dli_sname : "?");
  } else {
    fprintf(f, "? 0x%lx ?", (unsigned long)(uintptr_t)pc);
  }
}

int sampler_dump(const char* path) {
  if (have_timer) {
    timer_delete(timer);
    have_timer = 0;
  }
  FILE* f = fopen(path, "w");
  for (int i = 0; i < npc; ++i) {
    for (int k = 0; k < depth[i]; ++k) {
      if (k) fputs(" | ", f);
      // Return addresses point after the call: step back one byte so that addr2line names the call's line.
      put(f, k ? (void*)((uintptr_t)frames[i][k] - 1) : frames[i][k]);
    }
    fputc('\n', f);
  }
  fclose(f);
  int n = npc;
  npc = 0;
  return n;
}
