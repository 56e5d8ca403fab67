// libFuzzer entry point for the PTX front end. Every input must parse or be refused with
// diagnostics (no crash, hang or sanitizer report); an input that parses must print to text
// that parses back to an equal module, and printing that module must be a fixed point.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "ptx/parser.hpp"
#include "ptx/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  volta::ptx::ParseResult first = volta::ptx::parse(text, "fuzz.ptx");
  if (!first.ok()) {
    if (first.diagnostics.empty()) {
      std::fprintf(stderr, "parse failed without a diagnostic\n");
      std::abort();
    }
    for (const auto& d : first.diagnostics) {
      (void)d.render();
    }
    return 0;
  }
  std::string printed = volta::ptx::print(*first.module);
  volta::ptx::ParseResult second = volta::ptx::parse(printed, "fuzz.ptx");
  if (!second.ok()) {
    std::fprintf(stderr, "printed module does not parse:\n%s\n--- printed ---\n%s\n",
                 volta::ptx::render_all(second.diagnostics).c_str(), printed.c_str());
    std::abort();
  }
  if (!(*second.module == *first.module)) {
    std::fprintf(stderr, "round trip changed the module\n--- printed ---\n%s\n", printed.c_str());
    std::abort();
  }
  if (volta::ptx::print(*second.module) != printed) {
    std::fprintf(stderr, "printing is not a fixed point\n");
    std::abort();
  }
  return 0;
}
