// The JSON report of a batch (schema in docs/report-schema.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/driver/entry_result.hpp"

namespace volta::driver {

nlohmann::json to_json(const exec::Site& site);
nlohmann::json to_json(const exec::Failure& failure);
nlohmann::json to_json(const EntryResult& result);
nlohmann::json report_json(const std::vector<EntryResult>& results, const std::string& manifest);

}  // namespace volta::driver
