// Helpers of the emulator tests: run PTX text concretely under a small launch configuration.
#pragma once

#include <bit>
#include <cstring>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <vector>

#include "engine/emulate/emulator.hpp"
#include "engine/exec/lower.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/launch/manifest.hpp"
#include "ptx/parser.hpp"

namespace volta::emutest {

inline constexpr std::string_view kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// The same text for sm_90a (the Hopper instructions' target).
inline std::string sm90(std::string text) {
  text.replace(text.find("sm_80"), 5, "sm_90a");
  return text;
}

// One kernel `k` with the given parameters and body and registers of every kind.
inline std::string kernel(std::string_view params, std::string_view body,
                          std::string_view decls = "") {
  std::string s(kHeader);
  s += decls;
  s += "\n.visible .entry k(";
  s += params;
  s += ")\n{\n";
  s += "  .reg .pred %p<16>;\n  .reg .b16 %h<16>;\n  .reg .b32 %r<64>;\n  .reg .b64 %rd<32>;\n";
  s += "  .reg .f32 %f<32>;\n  .reg .f64 %fd<8>;\n";
  s += body;
  s += "\n}\n";
  return s;
}

struct Run {
  std::string diagnostics;
  emulate::EmulationResult result;
};

inline launch::KernelConfig config(launch::Dim3 block, const std::vector<std::string>& arrays,
                                   const std::vector<std::string>& params,
                                   launch::Dim3 grid = {1, 1, 1}) {
  launch::KernelConfig c;
  c.entry = "k";
  c.block = block;
  c.grid = grid;
  c.ctas = launch::CtaMode::All;
  for (const auto& a : arrays) {
    auto spec = launch::parse_array_flag(a);
    EXPECT_TRUE(spec) << (spec ? "" : spec.error());
    if (spec)
      c.arrays.push_back(*spec);
  }
  for (const auto& p : params) {
    auto spec = launch::parse_param(p);
    EXPECT_TRUE(spec) << (spec ? "" : spec.error());
    if (spec)
      c.params.push_back(*spec);
  }
  return c;
}

// The symbolic engine's failure on the kernel `run_text` emulates (nullopt: it ran to the end;
// a parse or lowering failure fails the test).
inline std::optional<exec::Failure> engine_failure(const std::string& text,
                                                   const launch::KernelConfig& c) {
  auto parsed = ptx::parse(text, "test.ptx");
  if (!parsed.ok()) {
    ADD_FAILURE() << "parse failed: " << text;
    return std::nullopt;
  }
  auto lowered = exec::lower(*parsed.module, c.entry, text);
  if (!lowered.program) {
    ADD_FAILURE() << "lowering failed: " << text;
    return std::nullopt;
  }
  symbolic::ExprStore store;
  return exec::run_kernel(*lowered.program, c, store).failure;
}

inline Run run_text(const std::string& text, const launch::KernelConfig& c,
                    const emulate::Inputs& inputs = {}) {
  Run r;
  auto parsed = ptx::parse(text, "test.ptx");
  if (!parsed.ok()) {
    for (const auto& d : parsed.diagnostics)
      r.diagnostics += d.message + "\n";
    ADD_FAILURE() << "parse failed: " << r.diagnostics << text;
    return r;
  }
  auto lowered = exec::lower(*parsed.module, c.entry, text);
  if (!lowered.program) {
    for (const auto& d : lowered.diagnostics)
      r.diagnostics += d.message + "\n";
    ADD_FAILURE() << "lowering failed: " << r.diagnostics;
    return r;
  }
  r.result = emulate::emulate(*lowered.program, c, inputs);
  return r;
}

// Little-endian bytes of 32-bit words.
inline std::vector<uint8_t> words(const std::vector<uint32_t>& w) {
  std::vector<uint8_t> b(w.size() * 4);
  std::memcpy(b.data(), w.data(), b.size());
  return b;
}
inline std::vector<uint8_t> floats(const std::vector<float>& f) {
  std::vector<uint8_t> b(f.size() * 4);
  std::memcpy(b.data(), f.data(), b.size());
  return b;
}
inline uint32_t word(const emulate::ArrayContents& a, size_t i) {
  uint32_t v;
  std::memcpy(&v, a.bytes.data() + 4 * i, 4);
  return v;
}
inline float as_float(uint32_t bits) {
  return std::bit_cast<float>(bits);
}

// The entry `name` of the soundness suite (examples/soundness/manifest.json).
inline launch::ManifestEntry soundness_entry(const std::string& name) {
  const auto m =
      launch::read_manifest(std::string(VOLTA_SOURCE_DIR) + "/examples/soundness/manifest.json");
  EXPECT_TRUE(m.manifest);
  if (m.manifest) {
    for (const auto& e : m.manifest->entries) {
      if (e.name == name)
        return e;
    }
  }
  ADD_FAILURE() << "no entry " << name;
  return {};
}

} // namespace volta::emutest
