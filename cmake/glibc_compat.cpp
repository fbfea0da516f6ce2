// Binds glibc symbols newer than 2.28 to their older versions, so that the binaries load on glibc 2.28 (manylinux_2_28).
//
// Note [glibc 2.28 compatibility]: a symbol reference takes the newest (default) version the build machine's glibc
// defines. cmake/glibc_compat.cmake links with `-Wl,--wrap=NAME` for each NAME below, which sends every reference
// to NAME (from our objects and from the static archives we cannot recompile: libcudart_static.a, libstdc++.a) to
// __wrap_NAME here; that tail-jumps to NAME@VERSION, the version glibc 2.28 defaults to. Only symbols whose old
// version has the same behaviour are listed: pow/exp/log@GLIBC_2.2.5 differ from @GLIBC_2.29 only in SVID error
// handling; pthread/sem/dl/shm functions moved into libc.so.6 in glibc 2.34 and keep their old versions there (the
// link adds libpthread.so.0, libdl.so.2 and librt.so.1, where glibc 2.28 defines them; the loader matches versions
// by name, whichever library defines them). stat-family functions before 2.33 were __xstat(_STAT_VER, ...), and
// __libc_single_threaded (2.32) and arc4random (2.36) have no old version: they get the fallbacks below.
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

// A tail jump keeps every argument register as it is, so one macro serves any signature (variadic ones included).
#if defined(__CET__)
#define CUARRAY_COMPAT_ENDBR "  endbr64\n"
#else
#define CUARRAY_COMPAT_ENDBR ""
#endif
// __wrap_NAME jumps to TARGET@VERSION.
#define CUARRAY_COMPAT_JUMP_AS(name, target, version)                                                                  \
  __asm__(".pushsection .text.__wrap_" #name ",\"ax\",@progbits\n"                                                     \
          ".globl __wrap_" #name "\n.hidden __wrap_" #name "\n.type __wrap_" #name ",@function\n"                      \
          "__wrap_" #name ":\n" CUARRAY_COMPAT_ENDBR "  jmp __cuarray_glibc_" #name "@PLT\n"                           \
          ".size __wrap_" #name ",.-__wrap_" #name "\n"                                                                \
          ".symver __cuarray_glibc_" #name "," #target "@" version "\n.popsection\n");
#define CUARRAY_COMPAT_JUMP(name, version) CUARRAY_COMPAT_JUMP_AS(name, name, version)

// The list is also cmake/glibc_compat.cmake's list of --wrap flags: keep both in step.
// clang-format off
#define CUARRAY_COMPAT_OLD_2_2_5(X) \
  X(exp) X(exp2) X(log) X(log2) X(pow) \
  X(dladdr) X(dlclose) X(dlerror) X(dlopen) X(dlsym) X(dlvsym) \
  X(pthread_create) X(pthread_detach) X(pthread_join) X(pthread_kill) X(pthread_once) \
  X(pthread_getspecific) X(pthread_setspecific) X(pthread_key_create) X(pthread_key_delete) X(__pthread_key_create) \
  X(pthread_mutex_trylock) X(pthread_mutexattr_destroy) X(pthread_mutexattr_init) X(pthread_mutexattr_setpshared) \
  X(pthread_mutexattr_settype) X(pthread_condattr_setpshared) \
  X(pthread_rwlock_destroy) X(pthread_rwlock_init) X(pthread_rwlock_rdlock) X(pthread_rwlock_timedrdlock) \
  X(pthread_rwlock_timedwrlock) X(pthread_rwlock_tryrdlock) X(pthread_rwlock_trywrlock) X(pthread_rwlock_unlock) \
  X(pthread_rwlock_wrlock) X(pthread_rwlockattr_destroy) X(pthread_rwlockattr_init) X(pthread_rwlockattr_setpshared) \
  X(pthread_spin_destroy) X(pthread_spin_init) X(pthread_spin_lock) X(pthread_spin_trylock) X(pthread_spin_unlock) \
  X(sem_destroy) X(sem_init) X(sem_post) X(sem_timedwait) X(sem_trywait) X(sem_wait) \
  X(shm_open) X(shm_unlink)
// clang-format on
#define CUARRAY_COMPAT_JUMP_2_2_5(name) CUARRAY_COMPAT_JUMP(name, "GLIBC_2.2.5")
CUARRAY_COMPAT_OLD_2_2_5(CUARRAY_COMPAT_JUMP_2_2_5)
CUARRAY_COMPAT_JUMP(dlinfo, "GLIBC_2.3.3")
CUARRAY_COMPAT_JUMP(dlmopen, "GLIBC_2.3.4")
// fmod and fmodf got new versions in glibc 2.38 without the SVID error wrapper, as exp/log/pow did in 2.29.
CUARRAY_COMPAT_JUMP(fmod, "GLIBC_2.2.5")
CUARRAY_COMPAT_JUMP(fmodf, "GLIBC_2.2.5")

// glibc 2.38 headers send C++ code (g++ defines _GNU_SOURCE, which turns on C23) calls of the strto* / wcsto* and
// scanf families to __isoc23_NAME, which differ from the older functions only in accepting a "0b" binary prefix.
// Each is sent to the function the same call named before 2.38: strtol@GLIBC_2.2.5, sscanf to __isoc99_sscanf.
// clang-format off
#define CUARRAY_COMPAT_C23_STRTO(X) \
  X(strtol) X(strtoll) X(strtoul) X(strtoull) X(strtoimax) X(strtoumax) \
  X(wcstol) X(wcstoll) X(wcstoul) X(wcstoull) X(wcstoimax) X(wcstoumax)
#define CUARRAY_COMPAT_C23_STRTO_L(X) \
  X(strtol_l) X(strtoul_l) X(wcstol_l) X(wcstoll_l) X(wcstoul_l) X(wcstoull_l)
#define CUARRAY_COMPAT_C23_SCANF(X) \
  X(scanf) X(fscanf) X(sscanf) X(vscanf) X(vfscanf) X(vsscanf) \
  X(wscanf) X(fwscanf) X(swscanf) X(vwscanf) X(vfwscanf) X(vswscanf)
// clang-format on
#define CUARRAY_COMPAT_C23_TO_2_2_5(name) CUARRAY_COMPAT_JUMP_AS(__isoc23_##name, name, "GLIBC_2.2.5")
#define CUARRAY_COMPAT_C23_TO_2_3(name) CUARRAY_COMPAT_JUMP_AS(__isoc23_##name, name, "GLIBC_2.3")
#define CUARRAY_COMPAT_C23_TO_C99(name) CUARRAY_COMPAT_JUMP_AS(__isoc23_##name, __isoc99_##name, "GLIBC_2.7")
CUARRAY_COMPAT_C23_STRTO(CUARRAY_COMPAT_C23_TO_2_2_5)
CUARRAY_COMPAT_C23_STRTO_L(CUARRAY_COMPAT_C23_TO_2_3)
CUARRAY_COMPAT_JUMP_AS(__isoc23_strtoll_l, strtoll_l, "GLIBC_2.3.3")
CUARRAY_COMPAT_JUMP_AS(__isoc23_strtoull_l, strtoull_l, "GLIBC_2.3.3")
CUARRAY_COMPAT_C23_SCANF(CUARRAY_COMPAT_C23_TO_C99)

extern "C" {
// What glibc's stat family was before 2.33: calls of __xstat & co. with the x86_64 _STAT_VER (1).
int __cuarray_glibc_fxstat(int, int, struct stat*);
int __cuarray_glibc_xstat(int, const char*, struct stat*);
int __cuarray_glibc_lxstat(int, const char*, struct stat*);
__asm__(".symver __cuarray_glibc_fxstat,__fxstat@GLIBC_2.2.5");
__asm__(".symver __cuarray_glibc_xstat,__xstat@GLIBC_2.2.5");
__asm__(".symver __cuarray_glibc_lxstat,__lxstat@GLIBC_2.2.5");
constexpr int cuarray_stat_ver = 1;

__attribute__((visibility("hidden"))) int __wrap_fstat(int fd, struct stat* st) {
  return __cuarray_glibc_fxstat(cuarray_stat_ver, fd, st);
}
__attribute__((visibility("hidden"))) int __wrap_fstat64(int fd, struct stat* st) {
  return __cuarray_glibc_fxstat(cuarray_stat_ver, fd, st);  // x86_64: struct stat64 is struct stat
}
__attribute__((visibility("hidden"))) int __wrap_stat(const char* path, struct stat* st) {
  return __cuarray_glibc_xstat(cuarray_stat_ver, path, st);
}
__attribute__((visibility("hidden"))) int __wrap_lstat(const char* path, struct stat* st) {
  return __cuarray_glibc_lxstat(cuarray_stat_ver, path, st);
}

// libstdc++ skips atomic reference counting while this is nonzero; 0 ("maybe threads") is always correct, and is
// what libstdc++ assumed with a glibc that lacks the variable.
__attribute__((visibility("hidden"))) char __wrap___libc_single_threaded = 0;

// std::random_device's "arc4random" source (libstdc++.a's random.o references it): the kernel's getrandom
// (GLIBC_2.25), as glibc's own arc4random does, with /dev/urandom for kernels without it.
__attribute__((visibility("hidden"))) std::uint32_t __wrap_arc4random() {
  std::uint32_t value = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(&value);
  std::size_t got = 0;
  while (got < sizeof value) {
    ssize_t n = getrandom(bytes + got, sizeof value - got, 0);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      break;
    }
  }
  if (got < sizeof value) {
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    while (fd >= 0 && got < sizeof value) {
      ssize_t n = read(fd, bytes + got, sizeof value - got);
      if (n > 0) {
        got += static_cast<std::size_t>(n);
      } else if (n == 0 || errno != EINTR) {
        break;
      }
    }
    if (fd >= 0) {
      close(fd);
    }
    if (got < sizeof value) {
      std::abort();  // as glibc's arc4random does: it has no way to report a failure
    }
  }
  return value;
}
}
