# Portable Linux binaries (Note [glibc 2.28 compatibility] in cmake/glibc_compat.cpp): cuarray_glibc_compat(target)
# links libstdc++ statically and hidden, and binds glibc symbols to versions glibc 2.28 has, so that the wheel is
# honestly manylinux_2_28 when built on a newer system (tools/build_wheel.sh checks it with auditwheel).
#
# On by default where scikit-build-core builds (the wheel, `pip install .`), off for plain CMake builds, where the
# system libstdc++ serves. Exceptions thrown in libcuarray's libstdc++ copy and caught in the extension's match by
# type name; CI's wheel step builds, tags and imports the result. libgcc stays shared (libgcc_s.so.1, GCC_4.2.0 at
# most, allowed by manylinux_2_28): one unwinder in the process, and GCC 12's static one calls
# _dl_find_object@GLIBC_2.35, which has no older version.
if(SKBUILD)
  set(_cuarray_glibc_compat_default ON)
else()
  set(_cuarray_glibc_compat_default OFF)
endif()
option(CUARRAY_GLIBC_COMPAT "Static hidden libstdc++ and glibc <= 2.28 symbol versions (x86_64 glibc with GCC)"
       ${_cuarray_glibc_compat_default})

set(_cuarray_glibc_compat_ok OFF)
if(CUARRAY_GLIBC_COMPAT AND CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64)$"
   AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  include(CheckCXXSourceCompiles)
  check_cxx_source_compiles("#include <features.h>\n#ifndef __GLIBC__\n#error not glibc\n#endif\nint main() {}"
    CUARRAY_HAS_GLIBC)
  if(CUARRAY_HAS_GLIBC)
    set(_cuarray_glibc_compat_ok ON)
  endif()
endif()

if(_cuarray_glibc_compat_ok)
  add_library(cuarray_glibc_compat OBJECT ${CMAKE_CURRENT_LIST_DIR}/glibc_compat.cpp)
  set_target_properties(cuarray_glibc_compat PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_compile_options(cuarray_glibc_compat PRIVATE -Wall -Wextra)
  cuarray_apply_werror(cuarray_glibc_compat)
  # The names glibc_compat.cpp defines __wrap_ functions for.
  set(_cuarray_glibc_wrapped exp exp2 log log2 pow dladdr dlclose dlerror dlinfo dlmopen dlopen dlsym dlvsym
    pthread_create pthread_detach pthread_join pthread_kill pthread_once pthread_getspecific pthread_setspecific
    pthread_key_create pthread_key_delete __pthread_key_create pthread_mutex_trylock pthread_mutexattr_destroy
    pthread_mutexattr_init pthread_mutexattr_setpshared pthread_mutexattr_settype pthread_condattr_setpshared
    pthread_rwlock_destroy pthread_rwlock_init pthread_rwlock_rdlock pthread_rwlock_timedrdlock
    pthread_rwlock_timedwrlock pthread_rwlock_tryrdlock pthread_rwlock_trywrlock pthread_rwlock_unlock
    pthread_rwlock_wrlock pthread_rwlockattr_destroy pthread_rwlockattr_init pthread_rwlockattr_setpshared
    pthread_spin_destroy pthread_spin_init pthread_spin_lock pthread_spin_trylock pthread_spin_unlock
    sem_destroy sem_init sem_post sem_timedwait sem_trywait sem_wait shm_open shm_unlink
    fstat fstat64 stat lstat __libc_single_threaded arc4random fmod fmodf)
  # glibc 2.38's C23 names of the strto*, wcsto* and scanf families (glibc_compat.cpp, CUARRAY_COMPAT_C23_*).
  foreach(_name strtol strtoll strtoul strtoull strtoimax strtoumax wcstol wcstoll wcstoul wcstoull wcstoimax
      wcstoumax strtol_l strtoll_l strtoul_l strtoull_l wcstol_l wcstoll_l wcstoul_l wcstoull_l scanf fscanf sscanf
      vscanf vfscanf vsscanf wscanf fwscanf swscanf vwscanf vfwscanf vswscanf)
    list(APPEND _cuarray_glibc_wrapped __isoc23_${_name})
  endforeach()
  list(TRANSFORM _cuarray_glibc_wrapped PREPEND "--wrap=")
  list(JOIN _cuarray_glibc_wrapped "," _cuarray_glibc_wrap_flags)
  set(CUARRAY_GLIBC_WRAP_FLAGS "-Wl,${_cuarray_glibc_wrap_flags}")
  message(STATUS "cuarray: static libstdc++ and glibc 2.28 symbol versions (CUARRAY_GLIBC_COMPAT)")
endif()

function(cuarray_glibc_compat target)
  if(NOT _cuarray_glibc_compat_ok)
    return()
  endif()
  target_sources(${target} PRIVATE $<TARGET_OBJECTS:cuarray_glibc_compat>)
  # libstdc++'s symbols stay private to each binary, so they never meet the interpreter's or another module's
  # libstdc++. The old-version functions live in these libraries on glibc < 2.34: needed even where the build
  # machine's copies are empty stubs (hence no --as-needed).
  target_link_options(${target} PRIVATE -static-libstdc++ "LINKER:--exclude-libs,libstdc++.a:libsupc++.a"
    ${CUARRAY_GLIBC_WRAP_FLAGS})
  target_link_options(${target} PRIVATE
    "SHELL:-Wl,--push-state,--no-as-needed -l:libpthread.so.0 -l:libdl.so.2 -l:librt.so.1 -Wl,--pop-state")
endfunction()
