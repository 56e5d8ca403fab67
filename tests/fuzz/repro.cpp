#include "repro.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "engine/emulate/npy.hpp"
#include "ptx_writer.hpp"

namespace volta::pair_fuzz {

namespace fs = std::filesystem;

nlohmann::json kernel_json(const launch::KernelConfig& k, const std::string& ptx) {
  nlohmann::json j;
  j["ptx"] = ptx;
  j["entry"] = k.entry;
  j["block"] = {k.block[0], k.block[1], k.block[2]};
  j["grid"] = {k.grid[0], k.grid[1], k.grid[2]};
  nlohmann::json arrays = nlohmann::json::array();
  for (const auto& a : k.arrays) {
    nlohmann::json x;
    x["name"] = a.name;
    x["base"] = fmt::format("0x{:x}", a.base);
    x["elem_width"] = a.elem_width;
    x["len"] = a.len;
    x["kind"] = std::string(launch::to_string(a.kind));
    if (a.type != launch::ElemType::Unknown)
      x["type"] = std::string(launch::to_string(a.type));
    arrays.push_back(x);
  }
  j["arrays"] = arrays;
  nlohmann::json params = nlohmann::json::array();
  for (const auto& p : k.params)
    params.push_back(p.text);
  j["params"] = params;
  return j;
}

namespace {

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << text;
}

} // namespace

void write_repro(const std::string& dir, const PairCase& c, const CheckResult* r, const Finding* f,
                 const std::string& note) {
  const fs::path d(dir);
  fs::create_directories(d);
  write_text(d / "ref.ptx", write_ptx(c.ref, "fz_ref"));
  write_text(d / "opt.ptx", write_ptx(c.opt, "fz_opt"));
  WriteOptions inst;
  inst.instrument = true;
  write_text(d / "ref.instrumented.ptx", write_ptx(c.ref, "fz_ref", inst));
  write_text(d / "opt.instrumented.ptx", write_ptx(c.opt, "fz_opt", inst));
  const std::string name = fmt::format("fz-{}-{}", c.seed, c.index);
  nlohmann::json entry;
  entry["name"] = name;
  entry["kind"] = "equivalence";
  entry["reference"] = kernel_json(kernel_config(c.ref, "ref.ptx", "fz_ref", false), "ref.ptx");
  entry["optimized"] = kernel_json(kernel_config(c.opt, "opt.ptx", "fz_opt", false), "opt.ptx");
  write_text(d / "pair.json", entry.dump(2) + "\n");
  nlohmann::json manifest;
  manifest["benchmarks"] = nlohmann::json::array({entry});
  write_text(d / "manifest.json", manifest.dump(2) + "\n");

  std::string text;
  text += fmt::format("pair {} (seed {}, index {}); replay: volta-pair-fuzz --replay {}:{}\n", name,
                      c.seed, c.index, c.seed, c.index);
  text += fmt::format("label (the mutation's hint): {}{}\n", to_string(c.label),
                      c.swapped ? " (the mutant is the reference)" : "");
  for (const auto& m : c.applied)
    text += fmt::format("  mutation {} [{}] {}\n", m.name, to_string(m.label), m.detail);
  if (!note.empty())
    text += note + "\n";
  if (r) {
    text += fmt::format("verdict: {}{}\n  {}\n", to_string(r->verdict),
                        r->guard.empty() ? "" : fmt::format(" (guard: {})", r->guard), r->detail);
    if (r->counterexample) {
      const auto& ce = *r->counterexample;
      text +=
          fmt::format("  counterexample {}: {} vs {}; device {} vs {} {}\n    inputs:", ce.element,
                      ce.reference_value, ce.optimized_value, ce.reference_device,
                      ce.optimized_device, ce.device_note);
      for (const auto& [k, v] : ce.inputs)
        text += fmt::format(" {}={}", k, v);
      text += "\n";
    }
    for (const auto& x : r->findings)
      text += fmt::format("finding [{}] {}: {}\n",
                          x.severity == Severity::Disagreement ? "DISAGREEMENT" : "suspicious",
                          x.kind, x.message);
    if (f && f->input_set >= 0 && f->input_set < static_cast<int>(r->inputs.size())) {
      const auto& set = r->inputs[f->input_set];
      const fs::path in = d / "inputs";
      fs::create_directories(in);
      const auto cfg = kernel_config(c.ref, "ref.ptx", "fz_ref", false);
      for (const auto& a : cfg.arrays) {
        auto it = set.inputs.arrays.find(a.name);
        if (it == set.inputs.arrays.end())
          continue;
        emulate::write_npy((in / (a.name + ".npy")).string(), set.inputs.types.at(a.name), a.len,
                           it->second);
      }
      text += fmt::format("inputs/: the emulator inputs of input set {} ({})\n", f->input_set,
                          to_string(set.cls));
    }
  }
  text += fmt::format(
      "\nreproduce:\n  volta-eg prove --pair pair.json\n"
      "  volta-eg run --batch manifest.json --filter {} --side ref --inputs inputs --show 64\n"
      "  volta-eg run --batch manifest.json --filter {} --side opt --inputs inputs --show 64\n",
      name, name);
  write_text(d / "README.txt", text);
}

} // namespace volta::pair_fuzz
