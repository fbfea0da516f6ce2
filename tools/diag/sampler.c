// A minimal in-process CPU sampler (SIGPROF + the interrupted PC) for machines without perf: load with
// ctypes, start(period_us), run the work, dump(path) writes "object offset" lines for addr2line.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#define MAXS (1 << 21)
static uintptr_t pcs[MAXS];
static volatile int npc;

static void handler(int sig, siginfo_t* si, void* ctx) {
  (void)sig; (void)si;
  ucontext_t* uc = (ucontext_t*)ctx;
  if (npc < MAXS) pcs[npc++] = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

void sampler_start(int period_us) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGPROF, &sa, 0);
  struct itimerval it = {{0, period_us}, {0, period_us}};
  setitimer(ITIMER_PROF, &it, 0);
}

int sampler_dump(const char* path) {
  struct itimerval it;
  memset(&it, 0, sizeof it);
  setitimer(ITIMER_PROF, &it, 0);
  FILE* f = fopen(path, "w");
  for (int i = 0; i < npc; ++i) {
    Dl_info d;
    if (dladdr((void*)pcs[i], &d) && d.dli_fname) {
      fprintf(f, "%s 0x%lx %s\n", d.dli_fname, (unsigned long)(pcs[i] - (uintptr_t)d.dli_fbase),
              d.dli_sname ? d.dli_sname : "?");
    } else {
      fprintf(f, "? 0x%lx ?\n", (unsigned long)pcs[i]);
    }
  }
  fclose(f);
  int n = npc;
  npc = 0;
  return n;
}
