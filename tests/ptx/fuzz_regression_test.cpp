// Inputs that once crashed, hung or broke the round trip (and hand-made hostile ones), kept
// under tests/ptx/fuzz-regressions/: each must be refused with diagnostics or round-trip.
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

#include "test_util.hpp"

namespace volta::ptx {
namespace {

TEST(FuzzRegressions, EveryInputIsHandled) {
  auto dir = std::filesystem::path(VOLTA_PTX_TEST_DIR) / "fuzz-regressions";
  auto files = testing::files_under(dir, "");
  std::erase_if(files, [](const auto& p) { return p.filename() == "README.md"; });
  if (files.empty()) {
    GTEST_SKIP() << "no regression inputs under " << dir;
  }
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    ParseResult r = parse(text, file.filename().string());
    if (!r.ok()) {
      EXPECT_FALSE(r.diagnostics.empty());
      EXPECT_LE(r.diagnostics.size(), 21u);
      for (const Diagnostic& d : r.diagnostics) {
        EXPECT_FALSE(d.render().empty());
      }
      continue;
    }
    testing::expect_round_trip(text, file.filename().string());
  }
}

} // namespace
} // namespace volta::ptx
