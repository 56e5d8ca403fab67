// Plain-text pieces of a report entry (JSON) shared by the JUnit and SARIF views.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace volta::report {

// "A[31]=-4, B[1023]=5/2" (every other input 0), or "" without a counterexample.
std::string counterexample_inputs(const nlohmann::json& entry);
// "examples/kernels/races/reduce_racy.cu:17 (PTX examples/.../reduce_racy.ptx:58:2), thread 0"
// for a site of a safety failure; `ptx` is the failing kernel's PTX path.
// `name_cta`: name the CTA even when it is (0,0,0) (the other site of the failure is in another
// CTA, and "thread 0" beside "thread 0 of CTA (1,0,0)" would read as the same thread).
std::string site_description(const nlohmann::json& site, const std::string& ptx,
                             bool name_cta = false);
// Whether a site lies outside CTA (0,0,0).
bool outside_first_cta(const nlohmann::json& site);
// The PTX path of the kernel with this role ("reference", "optimized", "kernel"), or "".
std::string kernel_ptx(const nlohmann::json& entry, const std::string& role);

} // namespace volta::report
