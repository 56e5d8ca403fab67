// The binary form of what a run and an entry report (sites, failures, statistics, whole entry
// results), for the caches under `--cache DIR`. Readers throw symbolic::ByteStreamError on
// malformed input, which the caches treat as a damaged file.
#pragma once

#include <optional>
#include <vector>

#include "engine/entry/entry_result.hpp"
#include "engine/symbolic/byte_stream.hpp"

namespace volta::batch {

void write_site(symbolic::ByteWriter& out, const std::optional<exec::Site>& site);
std::optional<exec::Site> read_site(symbolic::ByteReader& in);
void write_failure(symbolic::ByteWriter& out, const std::optional<exec::Failure>& failure);
std::optional<exec::Failure> read_failure(symbolic::ByteReader& in);
// The distinct races of a run (exec::KernelRun::races) and whether there were more.
void write_races(symbolic::ByteWriter& out, const std::vector<exec::Failure>& races,
                 bool truncated);
std::vector<exec::Failure> read_races(symbolic::ByteReader& in, bool& truncated);
void write_stats(symbolic::ByteWriter& out, const exec::KernelStats& stats);
exec::KernelStats read_stats(symbolic::ByteReader& in);

// Everything of a result but its place in a manifest (index, name, expected verdict), which
// the reader of a cached result takes from the entry it answers.
void write_entry_result(symbolic::ByteWriter& out, const entry::EntryResult& result);
entry::EntryResult read_entry_result(symbolic::ByteReader& in);

// An enumeration value written as one byte, checked against the last enumerator.
template <class Enum>
Enum read_enum(symbolic::ByteReader& in, Enum last) {
  const uint8_t v = in.u8();
  if (v > static_cast<uint8_t>(last))
    throw symbolic::ByteStreamError("enumeration value out of range");
  return static_cast<Enum>(v);
}

} // namespace volta::batch
