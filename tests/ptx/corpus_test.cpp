// Every PTX file we know of parses and survives the round trip: the Volta benchmark corpus,
// the project's examples/, and the nvcc samples kept next to these tests.
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

#include "test_util.hpp"

namespace volta::ptx {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void parse_and_round_trip_all(const std::vector<std::filesystem::path>& files) {
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    std::string text = read(file);
    ParseResult r = parse(text, file.string());
    ASSERT_TRUE(r.ok()) << render_all(r.diagnostics);
    EXPECT_TRUE(r.diagnostics.empty()) << render_all(r.diagnostics);
    size_t instructions = testing::instructions(*r.module).size();
    EXPECT_GT(instructions, 0u);
    testing::expect_round_trip(text, file.string());
  }
}

const std::filesystem::path kCorpus = std::filesystem::path(VOLTA_CORPUS_DIR) / "kernels";

TEST(Corpus, EveryKernelParsesAndRoundTrips) {
  if (!std::filesystem::is_directory(kCorpus)) {
    GTEST_SKIP() << "corpus not found at " << kCorpus;
  }
  auto files = testing::files_under(kCorpus, ".ptx");
  ASSERT_FALSE(files.empty()) << "no .ptx under " << kCorpus;
  parse_and_round_trip_all(files);
}

TEST(Corpus, EveryKernelHasAnEntryAndDecodedInstructions) {
  if (!std::filesystem::is_directory(kCorpus)) {
    GTEST_SKIP() << "corpus not found at " << kCorpus;
  }
  for (const auto& file : testing::files_under(kCorpus, ".ptx")) {
    SCOPED_TRACE(file.string());
    ParseResult r = parse_file(file.string());
    ASSERT_TRUE(r.ok()) << render_all(r.diagnostics);
    EXPECT_FALSE(r.module->entries().empty());
    EXPECT_GE(r.module->version_major, 7u);
    for (const Instruction& i : testing::instructions(*r.module)) {
      // Every type suffix is decoded, in order.
      size_t type_suffixes = 0;
      for (const std::string& s : i.suffixes) {
        type_suffixes += scalar_type_from(s).has_value();
      }
      EXPECT_EQ(i.types.size(), type_suffixes) << print(i);
      if (i.opcode == Opcode::Ld || i.opcode == Opcode::St) {
        EXPECT_NE(i.space, StateSpace::None) << print(i);
      }
    }
  }
}

TEST(Corpus, Examples) {
  auto files = testing::files_under(std::filesystem::path(VOLTA_SOURCE_DIR) / "examples", ".ptx");
  if (files.empty()) {
    GTEST_SKIP() << "no .ptx under examples/ yet";
  }
  parse_and_round_trip_all(files);
}

TEST(Corpus, NvccSamples) {
  // nvcc 13 output of tests/ptx/data/*.cu with -lineinfo and -G (debug sections included).
  auto files = testing::files_under(std::filesystem::path(VOLTA_PTX_TEST_DIR) / "data", ".ptx");
  ASSERT_FALSE(files.empty());
  parse_and_round_trip_all(files);
}

} // namespace
} // namespace volta::ptx

namespace volta::ptx {
namespace {

TEST(Corpus, LineinfoSampleMapsInstructionsToCudaLines) {
  auto path = std::filesystem::path(VOLTA_PTX_TEST_DIR) / "data" / "lineinfo_sm80.ptx";
  ParseResult r = parse_file(path.string());
  ASSERT_TRUE(r.ok()) << render_all(r.diagnostics);
  const Module& m = *r.module;
  ASSERT_NE(m.find_file(1), nullptr);
  EXPECT_NE(m.find_file(1)->path.find("lineinfo.cu"), std::string::npos);
  const Function* k = m.find_function("_Z1kPfPKfid");
  ASSERT_NE(k, nullptr);
  size_t mapped = 0;
  size_t on_source_lines = 0;
  for (const Statement& s : k->body) {
    if (const auto* i = std::get_if<Instruction>(&s); i != nullptr && i->debug_loc) {
      ++mapped;
      EXPECT_NE(m.find_file(i->debug_loc->file), nullptr) << print(*i);
      // lineinfo.cu has 22 lines; file 1 is it, the others are CUDA headers.
      if (i->debug_loc->file == 1) {
        EXPECT_LE(i->debug_loc->line, 22u) << print(*i);
        on_source_lines += i->debug_loc->line > 0;
      }
    }
  }
  EXPECT_GT(mapped, 100u);
  EXPECT_GT(on_source_lines, 50u);
  // The kernel's global store is on line 19 of lineinfo.cu.
  bool store_on_19 = false;
  for (const Statement& s : k->body) {
    if (const auto* i = std::get_if<Instruction>(&s);
        i != nullptr && i->opcode == Opcode::St && i->space == StateSpace::Global && i->debug_loc) {
      store_on_19 |= i->debug_loc->line == 19;
    }
  }
  EXPECT_TRUE(store_on_19);
}

} // namespace
} // namespace volta::ptx
