// LD_PRELOAD helper: print a native backtrace on SIGSEGV/SIGABRT (the GPU machine has no gdb).
// gcc -O1 -shared -fPIC -o /tmp/segv.so segv.c; LD_PRELOAD=/tmp/segv.so python3 ...
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void on_fault(int sig) {
  void* frames[64];
  int n = backtrace(frames, 64);
  const char* msg = sig == SIGSEGV ? "\n*** SIGSEGV, native backtrace:\n" : "\n*** SIGABRT, native backtrace:\n";
  write(2, msg, strlen(msg));
  backtrace_symbols_fd(frames, n, 2);
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void install(void) {
  signal(SIGSEGV, on_fault);
  signal(SIGABRT, on_fault);
}
