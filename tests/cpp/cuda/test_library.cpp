// The library loader's tables (NCCL's search, required and optional functions) and the status-name table; no GPU.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "src/cuda/library.hpp"
#include "src/cuda/nccl.hpp"
#include "src/cuda/nvrtc.hpp"
#include "src/cuda/status.hpp"

using namespace cuarray::detail;
namespace fs = std::filesystem;

namespace {

/// Sets (or, with nullopt, unsets) an environment variable for one scope.
class scoped_env {
public:
  scoped_env(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~scoped_env() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

private:
  const char* name_;
  std::optional<std::string> old_;
};

/// A fresh empty directory under the system's temporary directory, removed at the end of the scope.
class temp_dir {
public:
  temp_dir() {
    std::string pattern = (fs::temp_directory_path() / "cuarray-loader-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data()) ? pattern : std::string();
  }
  ~temp_dir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

/// Every function of NCCL's table, null or not.
std::vector<const void*> pointers(const nccl::api& a) {
  return {reinterpret_cast<const void*>(a.get_version),
          reinterpret_cast<const void*>(a.get_unique_id),
          reinterpret_cast<const void*>(a.comm_init_rank),
          reinterpret_cast<const void*>(a.comm_init_all),
          reinterpret_cast<const void*>(a.comm_destroy),
          reinterpret_cast<const void*>(a.comm_abort),
          reinterpret_cast<const void*>(a.comm_get_async_error),
          reinterpret_cast<const void*>(a.comm_count),
          reinterpret_cast<const void*>(a.comm_cu_device),
          reinterpret_cast<const void*>(a.comm_user_rank),
          reinterpret_cast<const void*>(a.all_reduce),
          reinterpret_cast<const void*>(a.reduce),
          reinterpret_cast<const void*>(a.broadcast),
          reinterpret_cast<const void*>(a.all_gather),
          reinterpret_cast<const void*>(a.reduce_scatter),
          reinterpret_cast<const void*>(a.send),
          reinterpret_cast<const void*>(a.recv),
          reinterpret_cast<const void*>(a.group_start),
          reinterpret_cast<const void*>(a.group_end),
          reinterpret_cast<const void*>(a.get_error_string)};
}

int seven(int) { return 7; }

}  // namespace

TEST(LibraryTable, ResolveListsMissingRequiredFunctionsAndLeavesOptionalOnesNull) {
  int (*present)(int) = nullptr;
  int (*absent)(int) = reinterpret_cast<int (*)(int)>(&seven);  // overwritten with null
  int (*absent_optional)(int) = reinterpret_cast<int (*)(int)>(&seven);
  int (*also_absent)(int) = nullptr;
  const library_symbol table[] = {
      {"present", present},
      {"absent", absent},
      {"absent_optional", absent_optional, library_symbol::optional},
      {"also_absent", also_absent},
  };
  std::string missing = resolve_symbols(table, [](const char* name) -> void* {
    return std::string(name) == "present" ? reinterpret_cast<void*>(&seven) : nullptr;
  });
  EXPECT_EQ(missing, "absent, also_absent");
  ASSERT_NE(present, nullptr);
  EXPECT_EQ(present(0), 7);
  EXPECT_EQ(absent, nullptr);
  EXPECT_EQ(absent_optional, nullptr);
}

TEST(LibraryTable, MissingNcclNamesBothWheelsTheOverrideAndEveryPlaceSearched) {
  temp_dir wheels;
  ASSERT_FALSE(wheels.path().empty());
  scoped_env dirs("CUARRAY_NVIDIA_LIB_DIRS", wheels.path());
  scoped_env wheels_only("CUARRAY_NO_SYSTEM_CUDA", "1");
  scoped_env no_override("CUARRAY_NCCL_PATH", std::nullopt);
  nccl::api fns;
  cuda_library lib = nccl::load(fns);
  EXPECT_EQ(lib.handle, nullptr);
  EXPECT_TRUE(lib.path.empty());
  const std::string expected =
      "NCCL (libnccl) could not be loaded; install the nvidia-nccl-cu13 or nvidia-nccl-cu12 wheel or NCCL (libnccl2), "
      "or set CUARRAY_NCCL_PATH to the library (CUARRAY_NO_SYSTEM_CUDA is set: only the wheels were searched). "
      "Searched:\n  " +
      wheels.path() + "/libnccl.so.2\n  " + wheels.path() + "/libnccl.so";
  EXPECT_EQ(lib.error, expected);
  for (const void* p : pointers(fns)) EXPECT_EQ(p, nullptr);
}

TEST(LibraryTable, CudaLibrariesNameTheCuda13WheelAndTheExtra) {
  // The message every loader shares, seen through NVRTC's table: a library missing from the wheels says which
  // wheel of each CUDA line to install.
  temp_dir wheels;
  scoped_env dirs("CUARRAY_NVIDIA_LIB_DIRS", wheels.path());
  scoped_env wheels_only("CUARRAY_NO_SYSTEM_CUDA", "1");
  scoped_env no_override("CUARRAY_NCCL_PATH", std::nullopt);
  const library_spec spec{"cuFAKE (libcufake)", "nvidia-cufake-cu12/cu13", {"libcufake.so.1"}, nullptr};
  int (*fn)() = nullptr;
  const library_symbol table[] = {{"cufakeCreate", fn}};
  cuda_library lib = load_library(spec, table);
  EXPECT_EQ(lib.handle, nullptr);
  EXPECT_TRUE(contains(lib.error, "cuFAKE (libcufake) could not be loaded; install NVIDIA's wheel (CUDA 13: "
                                  "nvidia-cufake, or every library cuarray uses with `pip install cuarray[cu13]`; "
                                  "CUDA 12: nvidia-cufake-cu12) or the CUDA toolkit (CUARRAY_NO_SYSTEM_CUDA"))
      << lib.error;
  EXPECT_TRUE(contains(lib.error, wheels.path() + "/libcufake.so.1")) << lib.error;
}

TEST(LibraryTable, FileWithoutTheRequiredFunctionsIsPassedOver) {
  // The C library is loaded in every process and exports none of NCCL's functions.
  Dl_info info{};
  ASSERT_NE(::dladdr(reinterpret_cast<void*>(&::getpid), &info), 0);
  ASSERT_NE(info.dli_fname, nullptr);
  temp_dir wheels;
  scoped_env dirs("CUARRAY_NVIDIA_LIB_DIRS", wheels.path());
  scoped_env wheels_only("CUARRAY_NO_SYSTEM_CUDA", "1");
  scoped_env override_path("CUARRAY_NCCL_PATH", std::string(info.dli_fname));
  nccl::api fns;
  cuda_library lib = nccl::load(fns);
  EXPECT_EQ(lib.handle, nullptr);
  EXPECT_TRUE(contains(lib.error, "Searched:\n  " + std::string(info.dli_fname) + "\n")) << lib.error;
  EXPECT_TRUE(contains(lib.error, std::string(info.dli_fname) + " lacks ncclGetVersion, ncclGetUniqueId, "))
      << lib.error;
  for (const void* p : pointers(fns)) EXPECT_EQ(p, nullptr);
}

TEST(LibraryTable, NcclInAWheelDirectoryIsFoundWithoutTheSystem) {
  std::string real;
  {
    nccl::api fns;
    scoped_env no_override("CUARRAY_NCCL_PATH", std::nullopt);
    scoped_env system_too("CUARRAY_NO_SYSTEM_CUDA", std::nullopt);
    cuda_library lib = nccl::load(fns);
    if (!lib.handle) GTEST_SKIP() << "no NCCL on this machine: " << lib.error;
    real = lib.path;
  }
  // A wheel's layout (site-packages/nvidia/nccl/lib), holding a link to the real file.
  temp_dir site;
  fs::path lib_dir = fs::path(site.path()) / "nvidia" / "nccl" / "lib";
  fs::create_directories(lib_dir);
  fs::create_symlink(real, lib_dir / "libnccl.so.2");
  scoped_env dirs("CUARRAY_NVIDIA_LIB_DIRS", lib_dir.string());
  scoped_env wheels_only("CUARRAY_NO_SYSTEM_CUDA", "1");
  scoped_env no_override("CUARRAY_NCCL_PATH", std::nullopt);
  nccl::api fns;
  cuda_library lib = nccl::load(fns);
  ASSERT_NE(lib.handle, nullptr) << lib.error;
  EXPECT_EQ(lib.path, real);  // symlinks resolved
  for (const void* p : pointers(fns)) EXPECT_NE(p, nullptr);
  int version = 0;
  ASSERT_EQ(fns.get_version(&version), nccl::success);
  EXPECT_GE(version, 20000);  // NCCL 2.x codes its version as major * 10000 + minor * 100 + patch
  EXPECT_TRUE(contains(fns.get_error_string(4), "invalid argument")) << fns.get_error_string(4);
}

TEST(StatusNames, EachLibraryNamesItsCodesAndFallsBackToItsOwnWords) {
  EXPECT_EQ(status_text(status_source::cublas, 1), "CUBLAS_STATUS_NOT_INITIALIZED");
  EXPECT_EQ(status_text(status_source::cublas, 16), "CUBLAS_STATUS_LICENSE_ERROR");
  EXPECT_EQ(status_text(status_source::cublas, 2), "cuBLAS status 2");  // not a cuBLAS code
  EXPECT_EQ(status_text(status_source::cusolver, 3), "CUSOLVER_STATUS_INVALID_VALUE");
  EXPECT_EQ(status_text(status_source::cusolver, 31), "CUSOLVER_STATUS_INVALID_WORKSPACE");
  EXPECT_EQ(status_text(status_source::cusolver, 99), "cuSOLVER error");
  EXPECT_EQ(status_text(status_source::cufft, 0x4), "CUFFT_INVALID_VALUE");
  EXPECT_EQ(status_text(status_source::cufft, 0x10), "CUFFT_NOT_SUPPORTED");
  EXPECT_EQ(status_text(status_source::cufft, 0x99), "unknown cuFFT error");
  EXPECT_EQ(status_text(status_source::cusparse, 11), "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES");
  EXPECT_EQ(status_text(status_source::cusparse, 12), "cuSPARSE status 12");
  EXPECT_EQ(status_text(status_source::nccl, 4), "ncclInvalidArgument");
  EXPECT_EQ(status_text(status_source::nccl, 42), "NCCL error 42");
  EXPECT_EQ(status_text(status_source::nvrtc, 6), "NVRTC_ERROR_COMPILATION");
  EXPECT_EQ(status_name(status_source::nvrtc, 99), nullptr);
  EXPECT_EQ(status_text(status_source::runtime, 1), "cudaErrorInvalidValue");
  EXPECT_EQ(runtime_status_message(1), "cudaErrorInvalidValue: invalid argument");
}

TEST(StatusNames, NvrtcTableAgreesWithNvrtc) {
  const cuarray::jit::nvrtc_api& a = cuarray::jit::nvrtc();
  for (int code = 0; code <= 17; ++code) {
    std::string own = a.get_error_string(code);
    if (own == "NVRTC_ERROR unknown") continue;  // an NVRTC older than the code
    EXPECT_EQ(own, status_text(status_source::nvrtc, code)) << "code " << code;
    EXPECT_EQ(cuarray::jit::nvrtc_error_name(a, code), own);
  }
}
