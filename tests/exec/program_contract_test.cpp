// The contract between lowering and the executor (exec::malformation): every program the
// project's examples lower to is well-formed, and each kind of malformation is named.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <string>
#include <vector>

#include "engine/exec/program.hpp"
#include "engine/exec/run_kernel.hpp"
#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

namespace fs = std::filesystem;

// The entries of a PTX file, by a scan of its `.entry` lines.
std::vector<std::string> entries_of(const fs::path& ptx) {
  std::ifstream in(ptx);
  const std::regex entry(R"(\.entry\s+([A-Za-z_$][\w$]*))");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, entry))
      out.push_back(m[1]);
  }
  return out;
}

TEST(ProgramContract, EveryExampleLowersToAWellFormedProgram) {
  size_t programs = 0;
  for (const auto& file : fs::recursive_directory_iterator(source_path("examples/kernels"))) {
    if (file.path().extension() != ".ptx")
      continue;
    for (const std::string& entry : entries_of(file.path())) {
      const exec::LoadResult loaded = exec::load_kernel(file.path().string(), entry);
      ASSERT_TRUE(loaded.kernel) << file.path() << " " << entry << ": "
                                 << loaded.failure_headline();
      EXPECT_EQ(exec::malformation(loaded.kernel->program), std::nullopt)
          << file.path() << " " << entry;
      ++programs;
    }
  }
  EXPECT_GT(programs, 20u);
}

TEST(ProgramContract, EachMalformationIsNamed) {
  const exec::LoadResult loaded =
      exec::load_kernel(source_path("examples/kernels/gemm/gemm_tiled.ptx"), "gemm_tiled");
  ASSERT_TRUE(loaded.kernel) << loaded.failure_headline();
  const exec::Program& good = loaded.kernel->program;
  ASSERT_GT(good.insts.size(), 3u);
  const auto reg_operand = [](const exec::Inst& inst) {
    for (const auto& o : inst.srcs)
      if (o.kind == exec::OpKind::Reg)
        return true;
    return false;
  };
  {
    exec::Program p = good;
    p.insts[1].target = static_cast<uint32_t>(p.insts.size() + 1);
    const auto why = exec::malformation(p);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("branch target out of range"), std::string::npos) << *why;
  }
  {
    exec::Program p = good;
    p.insts.back().target = static_cast<uint32_t>(p.insts.size()); // a label at the end: fine
    EXPECT_EQ(exec::malformation(p), std::nullopt);
  }
  {
    exec::Program p = good;
    for (auto& inst : p.insts) {
      if (!reg_operand(inst))
        continue;
      for (auto& o : inst.srcs)
        if (o.kind == exec::OpKind::Reg)
          o.reg = static_cast<uint32_t>(p.registers.size());
      break;
    }
    const auto why = exec::malformation(p);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("register out of range"), std::string::npos) << *why;
  }
}

} // namespace
} // namespace volta::etest
