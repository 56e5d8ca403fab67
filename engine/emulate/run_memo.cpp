#include "engine/emulate/run_memo.hpp"

#include <fmt/format.h>
#include <list>
#include <mutex>
#include <unordered_map>

#include "engine/content_hash.hpp"

namespace volta::emulate {

namespace {

// A program's identity by content: the same PTX loaded twice gives the same fingerprint, two
// programs never share one by the accident of an address.
std::string program_fingerprint(const exec::Program& p) {
  std::string text = fmt::format("{}\n{}\n{}\n", p.ptx_path, p.entry, p.param_bytes);
  for (const exec::Inst& in : p.insts)
    text += fmt::format("{}:{}\n", in.line, in.text);
  for (size_t i = 0; i < p.param_offsets.size(); ++i)
    text += fmt::format("param {} {}\n", p.param_offsets[i], static_cast<int>(p.param_types[i]));
  for (const auto& [address, bytes] : p.initial_data) {
    text += fmt::format("data {:x} ", address);
    text.append(bytes.begin(), bytes.end());
  }
  return cache_key(text);
}

std::string config_text(const launch::KernelConfig& c) {
  std::string text =
      fmt::format("{} {} block {},{},{} grid {},{},{} cluster {},{},{}{} ctas {} dyn {}\n",
                  c.ptx_path, c.entry, c.block[0], c.block[1], c.block[2], c.grid[0], c.grid[1],
                  c.grid[2], c.cluster[0], c.cluster[1], c.cluster[2],
                  c.cluster_given ? " given" : "", static_cast<int>(c.ctas), c.dyn_shared_bytes);
  for (const auto& a : c.arrays)
    text += fmt::format("array {} {:x} {} {} {} {}\n", a.name, a.base, a.elem_width, a.len,
                        launch::to_string(a.kind), launch::to_string(a.type));
  for (const auto& p : c.params) {
    text += fmt::format("param {}\n", p.text);
    for (const auto& f : p.struct_fields) {
      if (f.tensor_map)
        text += fmt::format("tensor map at {}: {}\n", f.offset, launch::describe(*f.tensor_map));
    }
    if (p.kind == launch::ParamSpec::Kind::Struct) {
      const auto bytes = launch::aggregate_bytes(p, c);
      text.append(bytes.begin(), bytes.end());
    }
  }
  for (const auto& [name, value] : c.globals)
    text += fmt::format("global {} {}\n", name, value);
  return text;
}

uint64_t size_of(const MemoizedRun& run) {
  uint64_t bytes = sizeof run;
  for (const auto& o : run.result.outputs)
    bytes += o.bytes.size() + o.written.size() + (o.paged ? o.paged->resident_bytes() : 0);
  return bytes;
}

struct Memo {
  std::mutex mutex;
  std::list<std::string> order; // most recently used first
  struct Kept {
    std::shared_ptr<const MemoizedRun> run;
    std::list<std::string>::iterator position;
    uint64_t bytes;
  };
  std::unordered_map<std::string, Kept> runs;
  uint64_t bytes = 0;
};

Memo& memo() {
  static Memo m;
  return m;
}

} // namespace

std::string run_key(const exec::Program& program, const launch::KernelConfig& config, uint32_t set,
                    const std::map<std::string, ElemType>& value_types) {
  std::string text = program_fingerprint(program) + "\n" + config_text(config);
  text += fmt::format("set {}\n", set);
  for (const auto& [name, type] : value_types)
    text += fmt::format("type {} {}\n", name, to_string(type));
  return cache_key(text);
}

std::shared_ptr<const MemoizedRun> memoized_run(const std::string& key) {
  Memo& m = memo();
  std::lock_guard lock(m.mutex);
  auto it = m.runs.find(key);
  if (it == m.runs.end())
    return nullptr;
  m.order.splice(m.order.begin(), m.order, it->second.position);
  return it->second.run;
}

void memoize_run(const std::string& key, std::shared_ptr<const MemoizedRun> run) {
  if (!run || !run->result.ok())
    return;
  const uint64_t bytes = size_of(*run);
  if (bytes > kMemoBytes)
    return;
  Memo& m = memo();
  std::lock_guard lock(m.mutex);
  if (m.runs.count(key))
    return;
  while (m.bytes + bytes > kMemoBytes && !m.order.empty()) {
    auto last = m.runs.find(m.order.back());
    m.bytes -= last->second.bytes;
    m.runs.erase(last);
    m.order.pop_back();
  }
  m.order.push_front(key);
  m.runs.emplace(key, Memo::Kept{std::move(run), m.order.begin(), bytes});
  m.bytes += bytes;
}

} // namespace volta::emulate
