// Reproducers: a fuzz pair written as files a person (or CI) can replay without the fuzzer:
//   ref.ptx, opt.ptx        the two kernels
//   pair.json               the entry, for `volta-eg prove --pair pair.json`
//   manifest.json           the same entry as a one-entry manifest (`volta-eg run --batch`)
//   inputs/NAME.npy         the emulator inputs that show the finding (`volta-eg run --inputs`)
//   README.txt              what was found, the mutations, the verdict, and the commands
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "pair_check.hpp"

namespace volta::pair_fuzz {

// The manifest JSON of a kernel configuration, its PTX named `ptx` (relative to the manifest).
nlohmann::json kernel_json(const launch::KernelConfig& k, const std::string& ptx);

// Writes the reproducer of `c` into `dir` (created). `r` may be null (a crash or a hang: the
// pair was not checked to the end); `f` the finding to describe (may be null).
void write_repro(const std::string& dir, const PairCase& c, const CheckResult* r, const Finding* f,
                 const std::string& note = "");

} // namespace volta::pair_fuzz
