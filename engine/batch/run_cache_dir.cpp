#include "engine/batch/run_cache_dir.hpp"

#include "engine/batch/result_archive.hpp"
#include "engine/content_hash.hpp"
#include "engine/launch/configuration_key.hpp"
#include "engine/symbolic/dag_archive.hpp"

namespace volta::batch {

namespace fs = std::filesystem;
using symbolic::ByteReader;
using symbolic::ByteWriter;

namespace {

constexpr std::string_view kMagic = "volta-eg run-cache 6"; // also in the header

// Measured on a naive GEMM: reading back takes about 170 ns a node (page faults of the store's
// chunks included), executing it produced 7 M nodes a second; 1.5 M nodes per second of
// execution keeps a run whose reading is at least ~4x faster than its execution.
constexpr double kKeptNodesPerSecond = 1.5e6;
constexpr size_t kAlwaysKeptNodes = 100'000; // small runs: a few milliseconds either way

// ---- the key: every input of a run, written out unambiguously (strings with their length)

void describe(ByteWriter& out, const launch::KernelConfig& c) {
  out.str(launch::configuration_key(c));
}

// The body of a kept run; nullopt when its DAG has more than `max_nodes` nodes.
std::optional<std::string> body_bytes(const exec::KernelRun& run, uint32_t entry_line,
                                      const symbolic::ExprStore& store, size_t max_nodes) {
  // Every node the run refers to, numbered before the references are written.
  symbolic::DagWriter dag(store);
  std::vector<symbolic::ExprId> roots;
  for (const auto& out : run.outputs)
    for (const auto& element : out.elements)
      roots.push_back(element.second);
  for (const auto& site : run.partial_sites)
    roots.push_back(site.first);
  roots.insert(roots.end(), run.control_roots.begin(), run.control_roots.end());
  for (symbolic::ExprId root : roots) {
    if (!dag.add(root, max_nodes))
      return std::nullopt;
  }

  ByteWriter out;
  dag.write(out);
  out.u32(entry_line);
  out.f64(run.seconds);
  write_stats(out, run.stats);
  write_failure(out, run.failure);
  write_races(out, run.races, run.races_truncated);
  out.u64(run.outputs.size());
  for (const auto& o : run.outputs) {
    out.str(o.name);
    out.u32(o.elem_width);
    out.u8(static_cast<uint8_t>(o.kind));
    out.u8(static_cast<uint8_t>(o.declared));
    out.u64(o.elements.size());
    for (const auto& [index, value] : o.elements) {
      out.u64(index);
      out.u32(dag.local(value));
    }
    out.u64(o.store_types.size());
    for (launch::ElemType t : o.store_types)
      out.u8(static_cast<uint8_t>(t));
  }
  out.u64(run.partial_sites.size());
  for (const auto& [node, site] : run.partial_sites) {
    out.u32(dag.local(node));
    out.u32(site.ptx_line);
    out.str(site.cuda_file);
    out.u32(site.cuda_line);
  }
  out.u64(run.control_roots.size());
  for (symbolic::ExprId root : run.control_roots)
    out.u32(dag.local(root));
  return out.take();
}

CachedRun read_body(ByteReader& in, symbolic::ExprStore& store) {
  symbolic::DagReader dag;
  dag.read(in, store);
  CachedRun cached;
  exec::KernelRun& run = cached.run;
  cached.entry_line = in.u32();
  run.seconds = in.f64();
  run.stats = read_stats(in);
  run.failure = read_failure(in);
  run.races = read_races(in, run.races_truncated);
  const uint64_t outputs = in.count(8);
  for (uint64_t i = 0; i < outputs; ++i) {
    exec::OutputArray o;
    o.name = in.str();
    o.elem_width = in.u32();
    o.kind = read_enum(in, launch::ArrayKind::Zero);
    o.declared = read_enum(in, launch::ElemType::F64);
    const uint64_t elements = in.count(12);
    o.elements.reserve(elements);
    for (uint64_t e = 0; e < elements; ++e) {
      const uint64_t index = in.u64();
      o.elements.emplace_back(index, dag.id(in.u32()));
    }
    const uint64_t types = in.count(1);
    o.store_types.reserve(types);
    for (uint64_t t = 0; t < types; ++t)
      o.store_types.push_back(read_enum(in, launch::ElemType::F64));
    run.outputs.push_back(std::move(o));
  }
  const uint64_t sites = in.count(16);
  for (uint64_t i = 0; i < sites; ++i) {
    const symbolic::ExprId node = dag.id(in.u32());
    exec::PartialSite site;
    site.ptx_line = in.u32();
    site.cuda_file = in.str();
    site.cuda_line = in.u32();
    run.partial_sites.emplace(node, std::move(site));
  }
  const uint64_t roots = in.count(4);
  for (uint64_t i = 0; i < roots; ++i)
    run.control_roots.push_back(dag.id(in.u32()));
  if (!in.done())
    throw symbolic::ByteStreamError("trailing bytes");
  return cached;
}

} // namespace

Expected<std::unique_ptr<DirectoryRunCache>> DirectoryRunCache::open(const std::string& dir,
                                                                     DiagnosticReporter* warnings) {
  std::unique_ptr<DirectoryRunCache> cache(new DirectoryRunCache(fs::path(dir) / "runs", warnings));
  if (auto problem = cache->folder_.create()) {
    return Unexpected{*problem};
  }
  return cache;
}

std::optional<std::string> DirectoryRunCache::key(const launch::KernelConfig& config,
                                                  const exec::RunOptions& options) {
  auto ptx = read_file(config.ptx_path);
  if (!ptx)
    return std::nullopt;
  ByteWriter text;
  text.str(kMagic);
  text.str(tool_digest());
  text.str(*ptx);
  describe(text, config);
  // The instruction budget and the cancel flag only stop a run, and stopped runs are not kept.
  text.u8(options.check_races ? 1 : 0);
  text.u8(options.benign_races ? 1 : 0);
  text.u8(options.converged_waits ? 1 : 0);
  return cache_key(text.bytes());
}

bool DirectoryRunCache::keepable(const exec::KernelRun& run) {
  if (run.races_cut_short)
    return false;
  return !run.failure ||
         (run.failure->verdict != Verdict::Unknown && run.failure->verdict != Verdict::Error);
}

std::string DirectoryRunCache::file_bytes(const std::string& key, const exec::KernelRun& run,
                                          uint32_t entry_line,
                                          const symbolic::ExprStore& store) const {
  return folder_.file_bytes(key, *body_bytes(run, entry_line, store, SIZE_MAX));
}

std::optional<CachedRun> DirectoryRunCache::load(const std::string& key,
                                                 symbolic::ExprStore& store) {
  const auto body = folder_.read(key);
  if (!body)
    return std::nullopt;
  try {
    ByteReader in(*body);
    CachedRun run = read_body(in, store);
    folder_.hit();
    return run;
  } catch (const symbolic::ByteStreamError& e) {
    folder_.reject(key, e.what());
    return std::nullopt;
  }
}

void DirectoryRunCache::keep(const std::string& key, const exec::KernelRun& run,
                             uint32_t entry_line, const symbolic::ExprStore& store) {
  if (!keepable(run))
    return;
  // Reading a DAG back costs about as much a node as building it did: a run whose outputs are
  // most of its work (a naive GEMM: a third of its instructions are multiply-adds of data) is
  // faster executed again than read, and its file would be hundreds of megabytes. Keep a run
  // only when reading it back is several times faster than the execution was.
  const size_t max_nodes =
      std::max<size_t>(kAlwaysKeptNodes, static_cast<size_t>(run.seconds * kKeptNodesPerSecond));
  if (auto body = body_bytes(run, entry_line, store, max_nodes))
    folder_.write(key, *body);
  else
    ++too_large_;
}

} // namespace volta::batch
