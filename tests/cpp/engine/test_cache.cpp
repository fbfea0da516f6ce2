// The kernel cache (Note [kernel cache]): keys, memory and disk hits, damaged files, concurrent writers, and
// the environment variables (no GPU needed: NVRTC only).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <latch>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cuarray/errors.hpp"
#include "src/engine/cache.hpp"
#include "src/engine/compile.hpp"

using namespace cuarray;
using namespace cuarray::jit;
namespace fs = std::filesystem;

namespace {

/// Sets an environment variable for the scope (unset when `value` is empty), restoring the old value.
class env_var {
public:
  env_var(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  ~env_var() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  env_var(const env_var&) = delete;
  env_var& operator=(const env_var&) = delete;

private:
  const char* name_;
  std::optional<std::string> old_;
};

std::string read_all(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

void write_all(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << bytes;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class KernelCache : public ::testing::Test {
protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "cuarray_cache_test_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    dir_ = root_ / "kernels";
    cache_dir_.emplace("CUARRAY_CACHE_DIR", dir_.string());
    save_source_.emplace("CUARRAY_CACHE_SAVE_SOURCE", std::nullopt);
  }
  void TearDown() override {
    save_source_.reset();
    cache_dir_.reset();
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  /// A request no earlier test has compiled in this process (the memory cache is process-wide).
  static compile_request fresh(const std::string& tag = "") {
    static std::atomic<int> counter{0};
    auto nonce = std::to_string(::getpid()) + "_" +
                 std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "_" +
                 std::to_string(counter++);
    compile_request req;
    req.source = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] = 2.f; }\n// " + tag + " " + nonce + "\n";
    req.arch = 80;
    return req;
  }

  fs::path file_of(const compile_request& req) const { return dir_ / (cache_key(req) + ".cubin"); }

  fs::path root_, dir_;
  std::optional<env_var> cache_dir_, save_source_;
};

cache_stats delta(const cache_stats& before) {
  cache_stats now = get_cache_stats();
  return {now.memory_hits - before.memory_hits, now.disk_hits - before.disk_hits, now.compiles - before.compiles};
}

}  // namespace

TEST_F(KernelCache, KeyChangesWithEverythingThatDecidesTheOutput) {
  compile_request base = fresh();
  std::string k = cache_key(base);
  EXPECT_EQ(k.size(), 32u);
  EXPECT_EQ(k.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(cache_key(base), k);  // stable
  auto differs = [&](auto change) {
    compile_request r = base;
    change(r);
    return cache_key(r) != k;
  };
  EXPECT_TRUE(differs([](compile_request& r) { r.source += " "; }));
  EXPECT_TRUE(differs([](compile_request& r) { r.options = {"-DX=1"}; }));
  EXPECT_TRUE(differs([](compile_request& r) { r.options = {"-std=c++20"}; }));
  EXPECT_TRUE(differs([](compile_request& r) { r.arch = 90; }));
  EXPECT_TRUE(differs([](compile_request& r) { r.ptx = true; }));
  EXPECT_TRUE(differs([](compile_request& r) { r.name = "other.cu"; }));
  EXPECT_TRUE(differs([](compile_request& r) { r.headers = {{"h.cuh", "// h"}}; }));
  EXPECT_TRUE(differs([](compile_request& r) { r.name_expressions = {"k"}; }));
  // Field boundaries are length-prefixed: moving text between two fields changes the key.
  compile_request a = base, b = base;
  a.options = {"-DA", "B"};
  b.options = {"-DAB"};
  EXPECT_NE(cache_key(a), cache_key(b));
}

TEST_F(KernelCache, SecondCallIsAMemoryHitWithTheSameObject) {
  compile_request req = fresh();
  cache_stats before = get_cache_stats();
  auto r1 = compile_cached(req);
  auto r2 = compile_cached(req);
  cache_stats d = delta(before);
  EXPECT_EQ(d.compiles, 1u);
  EXPECT_EQ(d.memory_hits, 1u);
  EXPECT_EQ(r1.get(), r2.get());
  EXPECT_EQ(r1->cubin.substr(0, 4), std::string("\x7f"
                                                "ELF"));
}

TEST_F(KernelCache, HitFromDiskAfterClearingTheMemoryCache) {
  compile_request req = fresh();
  req.source = "template <class T> __global__ void k(T* x) { x[threadIdx.x] = T(3); }\n" + req.source;
  req.name_expressions = {"k<float>", "k<int>"};
  auto r1 = compile_cached(req);
  ASSERT_TRUE(fs::exists(file_of(req))) << file_of(req);
  clear_memory_cache();
  cache_stats before = get_cache_stats();
  auto r2 = compile_cached(req);
  cache_stats d = delta(before);
  EXPECT_EQ(d.disk_hits, 1u);
  EXPECT_EQ(d.compiles, 0u);
  EXPECT_NE(r1.get(), r2.get());
  EXPECT_EQ(r2->cubin, r1->cubin);
  EXPECT_EQ(r2->lowered_names, r1->lowered_names);
  EXPECT_EQ(r2->lowered_names.size(), 2u);
  // No temporary files are left behind, and no source unless asked for.
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{file_of(req).filename().string()});
}

TEST_F(KernelCache, DamagedFilesAreIgnoredAndRebuilt) {
  compile_request req = fresh();
  auto good = compile_cached(req);
  const fs::path path = file_of(req);
  const std::string original = read_all(path);
  ASSERT_GT(original.size(), 64u);

  struct damage {
    const char* what;
    std::string bytes;
  };
  auto patched = [&](std::size_t at, char c) {
    std::string s = original;
    s[at] = static_cast<char>(s[at] ^ c);
    return s;
  };
  std::string huge_length = original;
  for (int i = 16; i < 24; ++i) huge_length[static_cast<std::size_t>(i)] = '\xff';
  std::vector<damage> damages = {
      {"empty", ""},
      {"shorter than the header", original.substr(0, 20)},
      {"truncated", original.substr(0, original.size() / 2)},
      {"one byte short", original.substr(0, original.size() - 1)},
      {"one byte more", original + "x"},
      {"bad magic", patched(0, 0x20)},
      {"other format version", patched(8, 0x7f)},
      {"huge length field", huge_length},
      {"payload bit flip", patched(original.size() / 2, 0x01)},
      {"last byte flipped", patched(original.size() - 1, 0x40)},
      {"garbage", std::string(original.size(), '\x5a')},
  };
  // A valid file of another key under this key's name is not this kernel.
  compile_request other = fresh("other");
  (void)compile_cached(other);
  damages.push_back({"another key's file", read_all(file_of(other))});

  for (const damage& dmg : damages) {
    write_all(path, dmg.bytes);
    clear_memory_cache();
    cache_stats before = get_cache_stats();
    std::shared_ptr<const compile_result> r;
    ASSERT_NO_THROW(r = compile_cached(req)) << dmg.what;
    cache_stats d = delta(before);
    EXPECT_EQ(d.disk_hits, 0u) << dmg.what;
    EXPECT_EQ(d.compiles, 1u) << dmg.what;
    EXPECT_EQ(r->cubin, good->cubin) << dmg.what;
    // Rebuilt: the next process (here: an empty memory cache) reads it from disk.
    clear_memory_cache();
    before = get_cache_stats();
    (void)compile_cached(req);
    EXPECT_EQ(delta(before).disk_hits, 1u) << dmg.what;
    EXPECT_EQ(read_all(path), original) << dmg.what;
  }
}

TEST_F(KernelCache, ConcurrentThreadsEndWithOneValidFile) {
  constexpr int n = 6;
  compile_request req = fresh();
  std::latch start(n);
  std::vector<std::shared_ptr<const compile_result>> results(n);
  std::vector<std::thread> threads;
  cache_stats before = get_cache_stats();
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      results[static_cast<std::size_t>(i)] = compile_cached(req);
    });
  }
  for (auto& t : threads) t.join();
  cache_stats d = delta(before);
  EXPECT_GE(d.compiles, 1u);
  EXPECT_EQ(d.compiles + d.memory_hits + d.disk_hits, static_cast<std::size_t>(n));
  for (const auto& r : results) EXPECT_EQ(r.get(), results[0].get());  // one object for every caller
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{file_of(req).filename().string()});
  clear_memory_cache();
  before = get_cache_stats();
  EXPECT_EQ(compile_cached(req)->cubin, results[0]->cubin);
  EXPECT_EQ(delta(before).disk_hits, 1u);
}

TEST_F(KernelCache, TwoProcessesWritingTheSameKeysEndWithValidFiles) {
  // Both children compile the same fresh kernels at about the same time, each writing every file.
  std::vector<compile_request> reqs;
  for (int i = 0; i < 4; ++i) reqs.push_back(fresh("fork " + std::to_string(i)));
  (void)nvrtc_version();  // load NVRTC before fork, so the children share nothing half-initialised
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  std::vector<pid_t> children;
  for (int c = 0; c < 2; ++c) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(pipe_fds[1]);
      char go;
      int code = ::read(pipe_fds[0], &go, 1) == 1 ? 0 : 3;  // wait until both children exist
      try {
        for (const auto& r : reqs) {
          if (compile_cached(r)->cubin.empty()) code = 2;
        }
      } catch (...) {
        code = 1;
      }
      ::_exit(code);
    }
    children.push_back(pid);
  }
  ::close(pipe_fds[0]);
  ASSERT_EQ(::write(pipe_fds[1], "gg", 2), 2);
  ::close(pipe_fds[1]);
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  std::vector<std::string> expected;
  for (const auto& r : reqs) expected.push_back(file_of(r).filename().string());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names_in(dir_), expected);
  cache_stats before = get_cache_stats();
  for (const auto& r : reqs) (void)compile_cached(r);
  cache_stats d = delta(before);
  EXPECT_EQ(d.disk_hits, reqs.size());
  EXPECT_EQ(d.compiles, 0u);
}

TEST_F(KernelCache, SaveSourceKeepsTheCudaSourceBesideTheCubin) {
  compile_request plain = fresh("plain");
  (void)compile_cached(plain);
  EXPECT_FALSE(fs::exists(dir_ / (cache_key(plain) + ".cu")));

  env_var save("CUARRAY_CACHE_SAVE_SOURCE", "1");
  compile_request req = fresh("saved");
  (void)compile_cached(req);
  fs::path cu = dir_ / (cache_key(req) + ".cu");
  ASSERT_TRUE(fs::exists(cu));
  EXPECT_EQ(read_all(cu), req.source);
  // Turned on after the kernel was compiled: a disk hit writes the source too.
  clear_memory_cache();
  (void)compile_cached(plain);
  EXPECT_EQ(read_all(dir_ / (cache_key(plain) + ".cu")), plain.source);
}

TEST_F(KernelCache, SaveSourceZeroMeansOff) {
  env_var save("CUARRAY_CACHE_SAVE_SOURCE", "0");
  compile_request req = fresh();
  (void)compile_cached(req);
  EXPECT_FALSE(fs::exists(dir_ / (cache_key(req) + ".cu")));
  EXPECT_TRUE(fs::exists(file_of(req)));
}

TEST_F(KernelCache, CacheDirComesFromTheEnvironment) {
  EXPECT_EQ(cache_dir(), dir_.string());
  compile_request req = fresh();
  (void)compile_cached(req);
  EXPECT_TRUE(fs::exists(file_of(req)));  // the folder is created on first write

  fs::path home = root_ / "home";
  env_var no_dir("CUARRAY_CACHE_DIR", std::nullopt);
  env_var home_var("HOME", home.string());
  EXPECT_EQ(cache_dir(), (home / ".cache/cuarray/kernels").string());
  compile_request in_home = fresh("home");
  (void)compile_cached(in_home);
  EXPECT_TRUE(fs::exists(home / ".cache/cuarray/kernels" / (cache_key(in_home) + ".cubin")));

  env_var no_home("HOME", std::nullopt);
  EXPECT_EQ(cache_dir(), "");
  cache_stats before = get_cache_stats();
  EXPECT_FALSE(compile_cached(fresh("nowhere"))->cubin.empty());  // no disk cache, still compiled
  EXPECT_EQ(delta(before).compiles, 1u);
}

TEST_F(KernelCache, UnwritableCacheDirIsIgnored) {
  write_all(root_ / "a_file", "not a folder");
  env_var bad("CUARRAY_CACHE_DIR", (root_ / "a_file" / "kernels").string());
  cache_stats before = get_cache_stats();
  compile_request req = fresh();
  EXPECT_FALSE(compile_cached(req)->cubin.empty());
  EXPECT_EQ(delta(before).compiles, 1u);
  clear_memory_cache();
  before = get_cache_stats();
  EXPECT_FALSE(compile_cached(req)->cubin.empty());
  EXPECT_EQ(delta(before).compiles, 1u);  // nothing could be stored
}

TEST_F(KernelCache, CompileErrorsAreNotCached) {
  compile_request req = fresh();
  req.source += "this is not C++;\n";
  EXPECT_THROW(compile_cached(req), compile_error);
  EXPECT_FALSE(fs::exists(file_of(req)));
  cache_stats before = get_cache_stats();
  EXPECT_THROW(compile_cached(req), compile_error);
  EXPECT_EQ(delta(before).memory_hits, 0u);
}
