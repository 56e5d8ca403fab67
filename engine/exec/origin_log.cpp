#include "engine/exec/origin_log.hpp"

namespace volta::exec {

void OriginLog::merge(const Program& program, uint32_t cta, const Local& local) {
  std::lock_guard guard(mutex_);
  PerProgram& p = programs_[&program];
  for (const auto& [node, pc] : local.made) {
    const At at{cta, pc};
    auto [it, inserted] = p.made.emplace(node, at);
    if (!inserted && at < it->second)
      it->second = at;
  }
  // The last store is the one of the highest CTA (CTAs that store one byte race, unless the
  // values are equal, where either store names a line that wrote it).
  for (const auto& [address, pc] : local.stored) {
    const At at{cta, pc};
    auto [it, inserted] = p.stored.emplace(address, at);
    if (!inserted && it->second.cta <= cta)
      it->second = at;
  }
}

const OriginLog::At* OriginLog::made(const Program& program, symbolic::ExprId node) const {
  std::lock_guard guard(mutex_);
  auto p = programs_.find(&program);
  if (p == programs_.end())
    return nullptr;
  auto it = p->second.made.find(node);
  return it == p->second.made.end() ? nullptr : &it->second;
}

const OriginLog::At* OriginLog::stored(const Program& program, uint64_t address) const {
  std::lock_guard guard(mutex_);
  auto p = programs_.find(&program);
  if (p == programs_.end())
    return nullptr;
  auto it = p->second.stored.find(address);
  return it == p->second.stored.end() ? nullptr : &it->second;
}

} // namespace volta::exec
