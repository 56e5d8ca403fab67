// Throughput of the PTX lexer, parser and printer over the whole Volta corpus (all .ptx files
// under ../shared/volta-corpus/kernels; the nvcc samples of tests/ptx/data when it is absent).
// Bytes/s is the corpus size over the time to process every file once.
#include <algorithm>
#include <benchmark/benchmark.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ptx/lexer.hpp"
#include "ptx/parser.hpp"
#include "ptx/printer.hpp"

namespace {

struct Corpus {
  std::vector<std::string> names;
  std::vector<std::string> texts;
  size_t bytes = 0;
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    std::filesystem::path dir = std::filesystem::path(VOLTA_CORPUS_DIR) / "kernels";
    if (!std::filesystem::is_directory(dir)) {
      dir = std::filesystem::path(VOLTA_PTX_TEST_DIR) / "data";
    }
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().extension() == ".ptx") {
        files.push_back(e.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      out.names.push_back(f.string());
      out.texts.push_back(s.str());
      out.bytes += out.texts.back().size();
    }
    return out;
  }();
  return c;
}

void BM_LexCorpus(benchmark::State& state) {
  const Corpus& c = corpus();
  for (auto _ : state) {
    size_t tokens = 0;
    for (const std::string& text : c.texts) {
      volta::ptx::detail::Lexer lex(text);
      while (lex.next().kind != volta::ptx::detail::TokenKind::End) {
        ++tokens;
      }
    }
    benchmark::DoNotOptimize(tokens);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.bytes));
}
BENCHMARK(BM_LexCorpus)->Unit(benchmark::kMillisecond);

void BM_ParseCorpus(benchmark::State& state) {
  const Corpus& c = corpus();
  for (auto _ : state) {
    for (size_t i = 0; i < c.texts.size(); ++i) {
      volta::ptx::ParseResult r = volta::ptx::parse(c.texts[i], c.names[i]);
      if (!r.ok()) {
        state.SkipWithError("a corpus file failed to parse");
        return;
      }
      benchmark::DoNotOptimize(r);
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.bytes));
  state.counters["files"] = static_cast<double>(c.texts.size());
}
BENCHMARK(BM_ParseCorpus)->Unit(benchmark::kMillisecond);

void BM_PrintCorpus(benchmark::State& state) {
  const Corpus& c = corpus();
  std::vector<volta::ptx::Module> modules;
  for (size_t i = 0; i < c.texts.size(); ++i) {
    modules.push_back(*volta::ptx::parse(c.texts[i], c.names[i]).module);
  }
  for (auto _ : state) {
    for (const auto& m : modules) {
      std::string text = volta::ptx::print(m);
      benchmark::DoNotOptimize(text);
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * c.bytes));
}
BENCHMARK(BM_PrintCorpus)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
