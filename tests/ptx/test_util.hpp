// Helpers shared by the PTX front-end tests.
#pragma once

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/ast.hpp"
#include "ptx/diagnostic.hpp"
#include "ptx/parser.hpp"
#include "ptx/printer.hpp"

namespace volta::ptx::testing {

inline constexpr std::string_view kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// A module with one kernel `k` whose body is `body`.
inline std::string kernel(std::string_view body) {
  std::string out(kHeader);
  out += ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n";
  out += body;
  out += "\n}\n";
  return out;
}

// Parses and fails the test (with the rendered diagnostics) unless it succeeded.
inline Module parse_ok(std::string_view text, std::string path = "t.ptx") {
  ParseResult r = parse(text, std::move(path));
  EXPECT_TRUE(r.ok()) << render_all(r.diagnostics);
  if (!r.ok()) {
    return Module{};
  }
  return std::move(*r.module);
}

// The parse must fail; returns the diagnostics.
inline std::vector<Diagnostic> parse_bad(std::string_view text, std::string path = "bad.ptx") {
  ParseResult r = parse(text, std::move(path));
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.diagnostics.empty());
  return r.diagnostics;
}

inline const Function& only_function(const Module& m) {
  for (const TopLevel& item : m.items) {
    if (const auto* f = std::get_if<Function>(&item)) {
      return *f;
    }
  }
  static const Function none;
  ADD_FAILURE() << "no function in module";
  return none;
}

inline std::vector<Instruction> instructions(const Function& f) {
  std::vector<Instruction> out;
  for (const Statement& s : f.body) {
    if (const auto* i = std::get_if<Instruction>(&s)) {
      out.push_back(*i);
    }
  }
  return out;
}

inline std::vector<Instruction> instructions(const Module& m) {
  std::vector<Instruction> out;
  for (const TopLevel& item : m.items) {
    if (const auto* f = std::get_if<Function>(&item)) {
      auto more = instructions(*f);
      out.insert(out.end(), more.begin(), more.end());
    }
  }
  return out;
}

// The single instruction of `kernel(line)`.
inline Instruction instruction(std::string_view line) {
  Module m = parse_ok(kernel(line));
  std::vector<Instruction> all = instructions(m);
  EXPECT_EQ(all.size(), 1u) << line;
  return all.empty() ? Instruction{} : all.front();
}

inline Operand operand(std::string_view line, size_t index) {
  Instruction i = instruction(line);
  EXPECT_LT(index, i.operands.size()) << line;
  return index < i.operands.size() ? i.operands[index] : Operand{};
}

// parse -> print -> parse gives an equal module, and printing it again gives the same text.
inline void expect_round_trip(std::string_view text, const std::string& label) {
  ParseResult first = parse(text, label);
  ASSERT_TRUE(first.ok()) << label << "\n" << render_all(first.diagnostics);
  std::string printed = print(*first.module);
  ParseResult second = parse(printed, label + " (printed)");
  ASSERT_TRUE(second.ok()) << label << "\n" << render_all(second.diagnostics) << printed;
  EXPECT_TRUE(*first.module == *second.module) << label << " changed in the round trip";
  EXPECT_EQ(print(*second.module), printed) << label << ": printing is not a fixed point";
}

// Every regular file under `dir` (recursively) whose name ends with `extension` (any file when
// it is empty); sorted.
inline std::vector<std::filesystem::path> files_under(const std::filesystem::path& dir,
                                                      std::string_view extension) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return out;
  }
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && (extension.empty() || it->path().extension() == extension)) {
      out.push_back(it->path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace volta::ptx::testing
