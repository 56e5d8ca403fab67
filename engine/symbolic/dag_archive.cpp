#include "engine/symbolic/dag_archive.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace volta::symbolic {

namespace {

uint32_t mix(uint32_t x) { // murmur3's fmix32
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  return x ^ (x >> 16);
}

uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t unzigzag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

} // namespace

void DagWriter::number() {
  if (numbered_ == order_.size())
    return;
  size_t size = 1024;
  while (size < 2 * order_.size())
    size *= 2;
  table_.assign(size, {kNoExpr, 0});
  const size_t mask = size - 1;
  for (size_t k = 0; k < order_.size(); ++k) {
    size_t i = mix(order_[k]) & mask;
    while (table_[i].first != kNoExpr)
      i = (i + 1) & mask;
    table_[i] = {order_[k], static_cast<uint32_t>(k + 1)};
  }
  numbered_ = order_.size();
}

uint32_t DagWriter::local(ExprId id) {
  if (id == kNoExpr)
    return 0;
  number();
  const size_t mask = table_.size() - 1;
  for (size_t i = mix(id) & mask;; i = (i + 1) & mask) {
    if (table_[i].first == id)
      return table_[i].second;
    if (table_[i].first == kNoExpr)
      throw std::logic_error("DagWriter::local of a node that was not added");
  }
}

bool DagWriter::add(ExprId root, size_t max_nodes) {
  if (root == kNoExpr || visited(root))
    return true;
  auto mark = [&](ExprId id) {
    if (id / 64 >= visited_.size())
      visited_.resize(std::max<size_t>(id / 64 + 1, store_.size() / 64 + 1), 0);
    visited_[id / 64] |= uint64_t{1} << (id % 64);
  };
  // Iterative post-order: a reduction chain is as deep as its length.
  std::vector<std::pair<ExprId, int>> stack{{root, 0}};
  mark(root);
  while (!stack.empty()) {
    auto& [id, next_child] = stack.back();
    const Node& n = store_.node(id);
    if (next_child < child_count(n.op)) {
      const uint32_t slots[3] = {n.a, n.b, n.c};
      const ExprId child = slots[next_child++];
      if (child != kNoExpr && !visited(child)) {
        mark(child);
        stack.push_back({child, 0});
      }
      continue;
    }
    if (order_.size() >= max_nodes)
      return false;
    order_.push_back(id);
    stack.pop_back();
  }
  return true;
}

namespace {

// Strings numbered in order of first use.
class NameTable {
public:
  uint32_t number(const std::string& s) {
    auto [it, added] = numbers_.emplace(s, static_cast<uint32_t>(names_.size()));
    if (added)
      names_.push_back(s);
    return it->second;
  }
  void write(ByteWriter& out) const {
    out.u64(names_.size());
    for (const auto& s : names_)
      out.str(s);
  }

private:
  std::map<std::string, uint32_t> numbers_;
  std::vector<std::string> names_;
};

std::vector<std::string> read_names(ByteReader& in) {
  std::vector<std::string> names(in.count(8));
  for (auto& s : names)
    s = in.str();
  return names;
}

template <class T>
const T& at(const std::vector<T>& v, uint32_t i) {
  if (i >= v.size())
    throw ByteStreamError("table index out of range");
  return v[i];
}

} // namespace

void DagWriter::write(ByteWriter& out) {
  NameTable arrays, params, rationals;
  ByteWriter nodes;
  int64_t last[3] = {0, 0, 0}; // the previous node's child in each slot
  for (ExprId id : order_) {
    const Node& n = store_.node(id);
    nodes.u8(
        static_cast<uint8_t>(static_cast<uint8_t>(n.op) | ((n.taint & kTransient) ? 0x80 : 0)));
    nodes.u8(n.aux);
    switch (n.op) {
    case Op::Const:
      nodes.varint(rationals.number(to_string(store_.rational(id))));
      break;
    case Op::Input:
      nodes.varint(arrays.number(store_.array_name(n.a)));
      nodes.varint(n.b);
      break;
    case Op::Param:
      nodes.varint(params.number(store_.param_name(n.a)));
      break;
    case Op::Undef:
    case Op::PosInf:
    case Op::NegInf:
    case Op::RawBits:
    case Op::Ln2:
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Fma:
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max:
    case Op::Rcp:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Exp:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh:
    case Op::Narrow:
    case Op::Cmp:
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::Not:
    case Op::Select:
    case Op::Pack:
    case Op::Extract:
    case Op::BitOp:
    case Op::AtomicResult:
    case Op::IAdd:
    case Op::IMul:
    case Op::INeg:
    case Op::ICmp:
    case Op::IntToReal:
    case Op::RealToInt:
    case Op::RoundReal:
    case Op::FloatBits:
    case Op::BitsFloat:
    case Op::Fresh: {
      const uint32_t slots[3] = {n.a, n.b, n.c};
      for (int i = 0; i < 3; ++i) {
        if (i >= child_count(n.op)) {
          nodes.varint(slots[i]);
          continue;
        }
        const int64_t local = this->local(slots[i]);
        nodes.varint(zigzag(local - last[i]));
        last[i] = local;
      }
    }
    }
  }
  arrays.write(out);
  params.write(out);
  rationals.write(out);
  out.u64(order_.size());
  out.str(nodes.bytes());
}

void DagReader::read(ByteReader& in, ExprStore& store) {
  const std::vector<std::string> arrays = read_names(in);
  const std::vector<std::string> params = read_names(in);
  std::vector<Rational> rationals;
  for (const auto& text : read_names(in)) {
    auto value = parse_rational(text);
    if (!value)
      throw ByteStreamError("malformed constant");
    rationals.push_back(*value);
  }
  std::vector<uint32_t> array_ids, param_ids;
  for (const auto& name : arrays)
    array_ids.push_back(store.add_array_name(name));
  for (const auto& name : params)
    param_ids.push_back(store.add_param_name(name));

  const uint64_t count = in.u64();
  const std::string_view node_bytes = in.view();
  if (count > node_bytes.size() / 2)
    throw ByteStreamError("node count larger than the data");
  ByteReader nodes(node_bytes);
  ids_.clear();
  ids_.reserve(count);
  int64_t last[3] = {0, 0, 0};
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t head = nodes.u8();
    const uint8_t op_code = head & 0x7f;
    static_assert(kOpCount <= 0x80, "the operator code has 7 bits (bit 7: transient)");
    if (op_code >= kOpCount)
      throw ByteStreamError("unknown operator");
    const Op op = static_cast<Op>(op_code);
    const bool transient = (head & 0x80) != 0;
    const uint8_t aux = nodes.u8();
    ExprId id = kNoExpr;
    switch (op) {
    case Op::Const:
      id = store.constant(at(rationals, nodes.varint32()));
      break;
    case Op::Input: {
      const uint32_t array = at(array_ids, nodes.varint32());
      id = store.input(array, nodes.varint32());
      break;
    }
    case Op::Param:
      id = store.param(at(param_ids, nodes.varint32()));
      break;
    case Op::Undef:
    case Op::PosInf:
    case Op::NegInf:
    case Op::RawBits:
    case Op::Ln2:
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Fma:
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max:
    case Op::Rcp:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Exp:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh:
    case Op::Narrow:
    case Op::Cmp:
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::Not:
    case Op::Select:
    case Op::Pack:
    case Op::Extract:
    case Op::BitOp:
    case Op::AtomicResult:
    case Op::IAdd:
    case Op::IMul:
    case Op::INeg:
    case Op::ICmp:
    case Op::IntToReal:
    case Op::RealToInt:
    case Op::RoundReal:
    case Op::FloatBits:
    case Op::BitsFloat:
    case Op::Fresh: {
      uint32_t slots[3];
      for (int s = 0; s < 3; ++s) {
        if (s >= child_count(op)) {
          slots[s] = nodes.varint32();
          continue;
        }
        last[s] += unzigzag(nodes.varint());
        // Children come before their parents: only a number already read is valid.
        if (last[s] < 0 || last[s] > static_cast<int64_t>(ids_.size()))
          throw ByteStreamError("child number out of range");
        slots[s] = this->id(static_cast<uint32_t>(last[s]));
      }
      const Node n{op, aux, 0, slots[0], slots[1], slots[2]};
      id = transient ? store.append(n) : store.intern(n);
    }
    }
    ids_.push_back(id);
  }
  if (!nodes.done())
    throw ByteStreamError("trailing bytes after the nodes");
}

ExprId DagReader::id(uint32_t local) const {
  if (local == 0)
    return kNoExpr;
  if (local > ids_.size())
    throw ByteStreamError("node number out of range");
  return ids_[local - 1];
}

} // namespace volta::symbolic
