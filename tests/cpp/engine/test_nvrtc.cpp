// NVRTC through dlopen: version, cubin and PTX output, name expressions, headers and compile errors (no GPU).
#include <gtest/gtest.h>

#include <string>

#include "cuarray/errors.hpp"
#include "src/engine/compile.hpp"

using namespace cuarray;
using namespace cuarray::jit;

namespace {

const char* tiny_kernel = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] = 1.f; }\n";

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

compile_request tiny(int arch) {
  compile_request req;
  req.source = tiny_kernel;
  req.arch = arch;
  return req;
}

}  // namespace

TEST(Nvrtc, VersionIsAtLeast12) {
  auto [major, minor] = nvrtc_version();
  EXPECT_GE(major, 12);
  EXPECT_GE(minor, 0);
  EXPECT_FALSE(nvrtc_path().empty());
  EXPECT_TRUE(contains(nvrtc_path(), "nvrtc")) << nvrtc_path();
}

TEST(Nvrtc, TinyKernelCompilesToElfCubinForSm80AndSm90) {
  for (int arch : {80, 90}) {
    compile_result r = compile(tiny(arch));
    ASSERT_GT(r.cubin.size(), 4u) << "arch " << arch;
    EXPECT_EQ(r.cubin.substr(0, 4), std::string("\x7f"
                                                "ELF"))
        << "arch " << arch;
    EXPECT_TRUE(r.lowered_names.empty());
  }
}

TEST(Nvrtc, CubinsDifferBetweenArchitectures) { EXPECT_NE(compile(tiny(80)).cubin, compile(tiny(90)).cubin); }

TEST(Nvrtc, PtxModeGivesTextWithEntry) {
  compile_request req = tiny(80);
  req.ptx = true;
  compile_result r = compile(req);
  EXPECT_TRUE(contains(r.cubin, ".entry k")) << r.cubin;
  EXPECT_TRUE(contains(r.cubin, ".target sm_80")) << r.cubin;
  EXPECT_EQ(r.cubin.find('\0'), std::string::npos);  // no terminating NUL kept
}

TEST(Nvrtc, PtxWithoutArchUsesNvrtcDefault) {
  compile_request req = tiny(0);
  req.ptx = true;
  EXPECT_TRUE(contains(compile(req).cubin, ".entry k"));
}

TEST(Nvrtc, CubinForVirtualArchitectureIsAValueError) {
  EXPECT_THROW(compile(tiny(0)), value_error);
  compile_request req = tiny(0);
  req.options = {"-arch=compute_80"};
  EXPECT_THROW(compile(req), value_error);
}

TEST(Nvrtc, ArchGivenAsOptionIsHonoured) {
  compile_request req = tiny(0);
  req.options = {"-arch=sm_90"};
  EXPECT_EQ(compile(req).cubin.substr(0, 4), std::string("\x7f"
                                                         "ELF"));
}

TEST(Nvrtc, TemplateNameExpressionGivesMangledName) {
  compile_request req;
  req.source = "template <class T> __global__ void k(T* x) { x[threadIdx.x] = T(1); }\n";
  req.name_expressions = {"k<float>", "k<double>"};
  req.arch = 80;
  compile_result r = compile(req);
  ASSERT_EQ(r.lowered_names.size(), 2u);
  EXPECT_EQ(r.lowered_names[0].rfind("_Z", 0), 0u) << r.lowered_names[0];
  EXPECT_TRUE(contains(r.lowered_names[0], "k")) << r.lowered_names[0];
  EXPECT_NE(r.lowered_names[0], r.lowered_names[1]);
  EXPECT_TRUE(contains(r.cubin, r.lowered_names[0]));  // the symbol is in the ELF's string table
}

TEST(Nvrtc, DefaultStandardIsCxx17AndCallerMayOverride) {
  compile_request req = tiny(80);
  std::vector<std::string> opts = effective_options(req);
  ASSERT_EQ(opts.size(), 2u);
  EXPECT_EQ(opts[0], "-std=c++17");
  EXPECT_EQ(opts[1], "-arch=sm_80");
  req.ptx = true;
  EXPECT_EQ(effective_options(req)[1], "-arch=compute_80");
  req.options = {"-std=c++20", "-DX=1"};
  opts = effective_options(req);
  EXPECT_EQ(std::count(opts.begin(), opts.end(), "-std=c++17"), 0);
  EXPECT_EQ(opts.back(), "-DX=1");
  for (const std::string& o : opts) EXPECT_NE(o, "--use_fast_math");

  // C++17 is really in force: `if constexpr` compiles without any option.
  compile_request cxx17 = tiny(80);
  cxx17.source = "extern \"C\" __global__ void k(int* x) { if constexpr (sizeof(int) == 4) x[0] = 1; }\n";
  EXPECT_NO_THROW(compile(cxx17));
}

TEST(Nvrtc, SyntaxErrorThrowsCompileErrorQuotingTheLine) {
  compile_request req;
  req.name = "my_broken_kernel.cu";
  req.arch = 80;
  req.source = "// line 1\n"
               "extern \"C\" __global__ void k(float* x) {\n"
               "  float y = 2.f\n"  // line 3: missing semicolon
               "  x[threadIdx.x] = y;\n"
               "}\n"
               "// line 6\n"
               "// line 7\n"
               "// line 8\n";
  try {
    compile(req);
    FAIL() << "expected compile_error";
  } catch (const compile_error& e) {
    std::string what = e.what();
    EXPECT_TRUE(contains(what, "my_broken_kernel.cu")) << what;
    EXPECT_TRUE(contains(what, "error")) << what;
    EXPECT_TRUE(contains(what, "float y = 2.f")) << what;
    EXPECT_FALSE(e.log.empty());
    EXPECT_EQ(e.source, req.source);
    EXPECT_EQ(e.name, req.name);
    EXPECT_EQ(e.options, effective_options(req));
    // NVRTC reports the missing ';' on line 3 or 4: that line is marked, with two lines of context.
    EXPECT_TRUE(contains(what, ">") && contains(what, " | ")) << what;
    EXPECT_TRUE(contains(what, "  1 | // line 1") || contains(what, "  2 | extern")) << what;
    EXPECT_FALSE(contains(what, "| // line 8")) << what;  // more than two lines away from any error
  }
}

TEST(Nvrtc, CompileErrorMessageMarksEachErrorLineWithContext) {
  std::string source;
  for (int i = 1; i <= 30; ++i) source += "line " + std::to_string(i) + "\n";
  std::string log = "k.cu(5): error: first problem\n  line 5\n  ^\n\n"
                    "k.cu(20): warning #177-D: not an error\n"
                    "k.cu(26): catastrophic error: second problem\n"
                    "other.cuh(3): error: in a header\n"
                    "2 errors detected in the compilation of \"k.cu\".\n";
  compile_error e("NVRTC_ERROR_COMPILATION", log, source, {"-std=c++17"}, "k.cu");
  std::string what = e.what();
  EXPECT_TRUE(contains(what, "kernel: k.cu")) << what;
  EXPECT_TRUE(contains(what, "first problem")) << what;
  EXPECT_TRUE(contains(what, "options: -std=c++17")) << what;
  EXPECT_TRUE(contains(what, ">  5 | line 5\n")) << what;
  EXPECT_TRUE(contains(what, "   3 | line 3\n")) << what;
  EXPECT_TRUE(contains(what, "   7 | line 7\n")) << what;
  EXPECT_FALSE(contains(what, "| line 8\n")) << what;
  EXPECT_FALSE(contains(what, "| line 20\n")) << what;  // warnings are not quoted when errors exist
  EXPECT_TRUE(contains(what, "> 26 | line 26\n")) << what;
  EXPECT_TRUE(contains(what, "  28 | line 28")) << what;  // the last line of the message
  EXPECT_TRUE(contains(what, "  ...\n")) << what;
  EXPECT_FALSE(contains(what, "| line 1\n")) << what;  // the header's line 3 is not the kernel's
}

TEST(Nvrtc, CompileErrorSurvivesOddLogs) {
  // Positions past the end, absurd numbers, an empty source and an empty log must not crash.
  compile_error a("x", "k.cu(999): error: eof\nk.cu(99999999999999999999): error: big\nk.cu(: error\n", "one\ntwo\n",
                  {}, "k.cu");
  EXPECT_TRUE(contains(a.what(), "> 2 | two")) << a.what();
  compile_error b("x", "k.cu(1): error: e\n", "", {}, "k.cu");
  EXPECT_TRUE(contains(b.what(), "k.cu(1): error: e")) << b.what();
  compile_error c("x", "", "src\n", {}, "k.cu");
  EXPECT_TRUE(contains(c.what(), "(empty)")) << c.what();
}

TEST(Nvrtc, UndeclaredIdentifierMarksItsLine) {
  compile_request req;
  req.arch = 80;
  req.source = "extern \"C\" __global__ void k(float* x) {\n  x[0] = not_declared_anywhere;\n}\n";
  try {
    compile(req);
    FAIL() << "expected compile_error";
  } catch (const compile_error& e) {
    EXPECT_TRUE(contains(e.what(), "> 2 |   x[0] = not_declared_anywhere;")) << e.what();
    EXPECT_TRUE(contains(e.what(), "kernel.cu")) << e.what();
  }
}

TEST(Nvrtc, InvalidOptionIsACompileError) {
  compile_request req = tiny(80);
  req.options = {"--no-such-option"};
  EXPECT_THROW(compile(req), compile_error);
}

TEST(Nvrtc, NulInSourceIsAValueError) {
  compile_request req = tiny(80);
  req.source += std::string(1, '\0') + "junk";
  EXPECT_THROW(compile(req), value_error);
}

TEST(Nvrtc, HeadersInRequestAreFound) {
  compile_request req;
  req.arch = 80;
  req.headers = {{"myheader.cuh", "#pragma once\n#define MY_VALUE 42\n__device__ inline int twice(int v) { "
                                  "return 2 * v; }\n"}};
  req.source = "#include \"myheader.cuh\"\nextern \"C\" __global__ void k(int* x) { x[0] = twice(MY_VALUE); }\n";
  compile_result r = compile(req);
  EXPECT_EQ(r.cubin.substr(0, 4), std::string("\x7f"
                                              "ELF"));

  compile_request missing = req;
  missing.headers.clear();
  try {
    compile(missing);
    FAIL() << "expected compile_error";
  } catch (const compile_error& e) {
    EXPECT_TRUE(contains(e.what(), "myheader.cuh")) << e.what();
  }
}

TEST(Nvrtc, WarningsAreReturnedInTheLog) {
  compile_request req = tiny(80);
  req.source = "extern \"C\" __global__ void k() { int unused; }\n";
  compile_result r = compile(req);
  EXPECT_TRUE(contains(r.log, "unused")) << r.log;
  EXPECT_TRUE(r.log.empty() || r.log.back() != '\0');
}
