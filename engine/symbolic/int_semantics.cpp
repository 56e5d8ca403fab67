#include "engine/symbolic/int_semantics.hpp"

#include <algorithm>
#include <bit>

namespace volta::symbolic {

namespace {
__int128 wide_product(uint64_t a, uint64_t b, uint32_t w, bool sign) {
  if (sign)
    return static_cast<__int128>(sign_extend(a, w)) * static_cast<__int128>(sign_extend(b, w));
  return static_cast<__int128>(static_cast<unsigned __int128>(a & width_mask(w)) *
                               (b & width_mask(w)));
}
} // namespace

std::optional<uint64_t> eval_bitop(BitOpKind kind, IntType type, uint32_t operand_width, uint64_t a,
                                   uint64_t b, uint64_t c, uint64_t d) {
  const uint32_t w = type.width();
  const bool sign = type.is_signed;
  const uint64_t m = width_mask(w);
  if (kind != BitOpKind::Ext && kind != BitOpKind::ExtSat)
    a &= m;
  uint64_t r = 0;
  switch (kind) {
  case BitOpKind::Shl:
    r = (b & 0xffffffffu) >= w ? 0 : a << (b & 0xffffffffu);
    break;
  case BitOpKind::Shr: {
    const uint64_t n = b & 0xffffffffu;
    if (sign)
      r = static_cast<uint64_t>(sign_extend(a, w) >> std::min<uint64_t>(n, w - 1));
    else
      r = n >= w ? 0 : a >> n;
    break;
  }
  case BitOpKind::And:
    r = a & b;
    break;
  case BitOpKind::Or:
    r = a | b;
    break;
  case BitOpKind::Xor:
    r = a ^ b;
    break;
  case BitOpKind::Not:
    r = ~a;
    break;
  case BitOpKind::CNot:
    r = a == 0 ? 1 : 0;
    break;
  case BitOpKind::MulHi:
    r = static_cast<uint64_t>(wide_product(a, b, w, sign) >> w);
    break;
  case BitOpKind::Mul24Lo:
  case BitOpKind::Mul24Hi: {
    const int64_t x = sign ? sign_extend(a, 24) : static_cast<int64_t>(a & 0xffffff);
    const int64_t y = sign ? sign_extend(b, 24) : static_cast<int64_t>(b & 0xffffff);
    const __int128 p = static_cast<__int128>(x) * y; // 48 bits
    r = kind == BitOpKind::Mul24Lo ? static_cast<uint64_t>(p) : static_cast<uint64_t>(p >> 16);
    break;
  }
  case BitOpKind::Div:
  case BitOpKind::Rem: {
    if ((b & m) == 0)
      return std::nullopt;
    if (sign) {
      const int64_t x = sign_extend(a, w), y = sign_extend(b, w);
      if (y == -1)
        r = kind == BitOpKind::Div ? static_cast<uint64_t>(0) - static_cast<uint64_t>(x) : 0;
      else
        r = static_cast<uint64_t>(kind == BitOpKind::Div ? x / y : x % y);
    } else {
      r = kind == BitOpKind::Div ? a / (b & m) : a % (b & m);
    }
    break;
  }
  case BitOpKind::Min:
    r = sign ? static_cast<uint64_t>(std::min(sign_extend(a, w), sign_extend(b, w)))
             : std::min(a, b & m);
    break;
  case BitOpKind::Max:
    r = sign ? static_cast<uint64_t>(std::max(sign_extend(a, w), sign_extend(b, w)))
             : std::max(a, b & m);
    break;
  case BitOpKind::Abs: {
    const int64_t x = sign_extend(a, w);
    r = x < 0 ? static_cast<uint64_t>(0) - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
    break;
  }
  case BitOpKind::Popc:
    r = static_cast<uint64_t>(std::popcount(a));
    break;
  case BitOpKind::Clz:
    r = static_cast<uint64_t>(std::countl_zero(a) - (64 - static_cast<int>(w)));
    break;
  case BitOpKind::Bfind: {
    // Index of the most significant non-sign bit; 0xffffffff when there is none.
    const uint64_t x = sign && sign_extend(a, w) < 0 ? ~a & m : a;
    r = x == 0 ? 0xffffffffu : static_cast<uint64_t>(63 - std::countl_zero(x));
    break;
  }
  case BitOpKind::Brev:
    for (uint32_t i = 0; i < w; ++i)
      r |= ((a >> i) & 1u) << (w - 1 - i);
    break;
  case BitOpKind::Bfe: {
    const uint32_t pos = static_cast<uint32_t>(b & 0xff), len = static_cast<uint32_t>(c & 0xff);
    const uint64_t sbit = (sign && len > 0) ? (a >> std::min(pos + len - 1, w - 1)) & 1u : 0;
    for (uint32_t i = 0; i < w; ++i) {
      const uint64_t bit = (i < len && pos + i < w) ? (a >> (pos + i)) & 1u : sbit;
      r |= bit << i;
    }
    break;
  }
  case BitOpKind::Bfi: {
    // bfi d, a(insert), b(base), c(pos), d(len)
    const uint64_t pos = c & 0xff, len = d & 0xff;
    r = b & m;
    for (uint64_t i = 0; i < len && pos + i < w; ++i) {
      const uint64_t bit = (a >> i) & 1u;
      r = (r & ~(uint64_t{1} << (pos + i))) | (bit << (pos + i));
    }
    break;
  }
  case BitOpKind::Prmt: {
    const uint64_t bytes = (a & 0xffffffffu) | (b & 0xffffffffu) << 32;
    for (int i = 0; i < 4; ++i) {
      const uint32_t sel = static_cast<uint32_t>(c >> (4 * i)) & 0xf;
      uint8_t byte = static_cast<uint8_t>(bytes >> (8 * (sel & 7)));
      if (sel & 8)
        byte = (byte & 0x80) ? 0xff : 0;
      r |= uint64_t{byte} << (8 * i);
    }
    break;
  }
  case BitOpKind::Lop3: {
    const uint64_t lut = d & 0xff;
    for (uint32_t i = 0; i < w; ++i) {
      const uint32_t idx =
          static_cast<uint32_t>(((a >> i) & 1u) << 2 | ((b >> i) & 1u) << 1 | ((c >> i) & 1u));
      r |= ((lut >> idx) & 1u) << i;
    }
    break;
  }
  case BitOpKind::ShfL:
  case BitOpKind::ShfR: {
    // d: 1 = .wrap (shift amount mod 32), 0 = .clamp (at most 32)
    const uint64_t n = d != 0 ? (c & 31) : std::min<uint64_t>(c & 0xffffffffu, 32);
    const uint64_t joined = (a & 0xffffffffu) | (b & 0xffffffffu) << 32;
    r = kind == BitOpKind::ShfL ? (joined << n) >> 32 : joined >> n;
    break;
  }
  case BitOpKind::Sad: {
    const int64_t x = sign ? sign_extend(a, w) : static_cast<int64_t>(a);
    const int64_t y = sign ? sign_extend(b, w) : static_cast<int64_t>(b & m);
    r = static_cast<uint64_t>(x > y ? x - y : y - x) + c;
    break;
  }
  case BitOpKind::Ext:
    // To this node's width, from `operand_width`; the node's signedness is the source's.
    r = sign ? static_cast<uint64_t>(sign_extend(a, operand_width)) : a & width_mask(operand_width);
    break;
  case BitOpKind::ExtSat: {
    // operand_width: the source's width, | 256 when the source is signed.
    const uint32_t sw = operand_width & 0xff;
    const bool src_signed = (operand_width & 0x100) != 0;
    const __int128 x = src_signed ? static_cast<__int128>(sign_extend(a, sw))
                                  : static_cast<__int128>(a & width_mask(sw));
    const __int128 lo = sign ? -(static_cast<__int128>(1) << (w - 1)) : 0;
    const __int128 hi =
        sign ? (static_cast<__int128>(1) << (w - 1)) - 1 : (static_cast<__int128>(1) << w) - 1;
    r = static_cast<uint64_t>(std::clamp(x, lo, hi));
    break;
  }
  case BitOpKind::SatAdd:
  case BitOpKind::SatSub: {
    const __int128 x = sign_extend(a, w), y = sign_extend(b, w);
    __int128 s = kind == BitOpKind::SatAdd ? x + y : x - y;
    const __int128 lo = -(static_cast<__int128>(1) << (w - 1));
    const __int128 hi = (static_cast<__int128>(1) << (w - 1)) - 1;
    s = std::clamp(s, lo, hi);
    r = static_cast<uint64_t>(s);
    break;
  }
  case BitOpKind::Tuple:
  case BitOpKind::Other:
    return std::nullopt;
  }
  return r & m;
}

mpz_class round_rational(const mpq_class& q, RoundKind rounding) {
  mpz_class z;
  switch (rounding) {
  case RoundKind::Down:
    mpz_fdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
    break;
  case RoundKind::Up:
    mpz_cdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
    break;
  case RoundKind::Zero:
    mpz_tdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
    break;
  case RoundKind::NearestEven: {
    mpz_fdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
    const mpq_class frac = q - mpq_class(z);
    if (frac > mpq_class(1, 2) || (frac == mpq_class(1, 2) && mpz_odd_p(z.get_mpz_t())))
      z += 1;
    break;
  }
  }
  return z;
}

int format_precision(FloatFormat f) {
  switch (f) {
  case FloatFormat::F16:
    return 11;
  case FloatFormat::BF16:
    return 8;
  case FloatFormat::F64:
    return 53;
  default:
    return 24;
  }
}

int format_max_exponent(FloatFormat f) {
  switch (f) {
  case FloatFormat::F16:
    return 15;
  case FloatFormat::F64:
    return 1023;
  default:
    return 127;
  }
}

bool int_to_real_may_overflow(uint8_t aux) {
  const IntType source = IntType::from_code(aux & 7);
  if (static_cast<FloatFormat>((aux >> 3) & 3) != FloatFormat::F16)
    return false;
  return source.width() > 16 || (source.width() == 16 && !source.is_signed);
}

std::optional<mpz_class> round_integer_to_format(const mpz_class& z, FloatFormat format,
                                                 RoundKind rounding) {
  const int p = format_precision(format);
  const bool negative = z < 0;
  mpz_class m = abs(z);
  const int bits = static_cast<int>(mpz_sizeinbase(m.get_mpz_t(), 2));
  if (m != 0 && bits > p) {
    const int shift = bits - p;
    mpz_class q = m >> shift;
    const mpz_class rem = m - (q << shift);
    const mpz_class half = mpz_class(1) << (shift - 1);
    bool up = false;
    switch (rounding) {
    case RoundKind::NearestEven:
      up = rem > half || (rem == half && mpz_odd_p(q.get_mpz_t()));
      break;
    case RoundKind::Zero:
      break;
    case RoundKind::Down: // toward -inf: away from zero for negative values
      up = negative && rem != 0;
      break;
    case RoundKind::Up:
      up = !negative && rem != 0;
      break;
    }
    m = (q + (up ? 1 : 0)) << shift;
  }
  // The largest finite value is (2 - 2^(1-p)) * 2^emax.
  const int emax = format_max_exponent(format);
  const mpz_class largest = ((mpz_class(1) << p) - 1) << (emax - p + 1);
  if (m > largest)
    return std::nullopt;
  return negative ? mpz_class(-m) : m;
}

bool eval_icmp(CmpKind kind, bool is_signed, uint32_t w, uint64_t a, uint64_t b) {
  const uint64_t ua = a & width_mask(w), ub = b & width_mask(w);
  const int64_t sa = sign_extend(a, w), sb = sign_extend(b, w);
  switch (kind) {
  case CmpKind::Eq:
    return ua == ub;
  case CmpKind::Ne:
    return ua != ub;
  case CmpKind::Lt:
    return is_signed ? sa < sb : ua < ub;
  case CmpKind::Le:
    return is_signed ? sa <= sb : ua <= ub;
  case CmpKind::Gt:
    return is_signed ? sa > sb : ua > ub;
  case CmpKind::Ge:
    return is_signed ? sa >= sb : ua >= ub;
  }
  return false;
}

} // namespace volta::symbolic
