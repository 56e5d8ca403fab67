// PTX numeric literals (see number.hpp).
#include "ptx/number.hpp"

#include <bit>
#include <charconv>
#include <cstring>

namespace volta::ptx::detail {

namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return 99;
}

NumberValue bad(const char* why) {
  NumberValue v;
  v.kind = NumberValue::Bad;
  v.error = why;
  return v;
}

// Reads `digits` in `base` into a u64, refusing overflow.
bool read_digits(std::string_view digits, unsigned base, uint64_t& out) {
  if (digits.empty()) {
    return false;
  }
  uint64_t value = 0;
  for (char c : digits) {
    int d = digit_value(c);
    if (d >= static_cast<int>(base)) {
      return false;
    }
    if (__builtin_mul_overflow(value, base, &value) ||
        __builtin_add_overflow(value, static_cast<uint64_t>(d), &value)) {
      return false;
    }
  }
  out = value;
  return true;
}

bool is_hex_run(std::string_view s) {
  for (char c : s) {
    if (digit_value(c) > 15) {
      return false;
    }
  }
  return true;
}

} // namespace

NumberValue read_number(std::string_view text) {
  if (text.empty()) {
    return bad("empty numeric literal");
  }
  // Hex floats: exactly 8 or 16 hex digits.
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F')) {
    std::string_view hex = text.substr(2);
    if (hex.size() != 8 || !is_hex_run(hex)) {
      return bad("invalid f32 literal (expected 0f followed by 8 hex digits)");
    }
    NumberValue v;
    v.kind = NumberValue::Float;
    v.width = 32;
    read_digits(hex, 16, v.bits);
    return v;
  }
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'd' || text[1] == 'D')) {
    std::string_view hex = text.substr(2);
    if (hex.size() != 16 || !is_hex_run(hex)) {
      return bad("invalid f64 literal (expected 0d followed by 16 hex digits)");
    }
    NumberValue v;
    v.kind = NumberValue::Float;
    v.width = 64;
    read_digits(hex, 16, v.bits);
    return v;
  }

  bool prefixed = text.size() >= 2 && text[0] == '0' &&
                  (text[1] == 'x' || text[1] == 'X' || text[1] == 'b' || text[1] == 'B');
  if (!prefixed && text.find_first_of(".eE") != std::string_view::npos) {
    double d = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec == std::errc::result_out_of_range) {
      return bad("floating-point literal out of range");
    }
    if (ec != std::errc{} || end != text.data() + text.size()) {
      return bad("invalid floating-point literal");
    }
    NumberValue v;
    v.kind = NumberValue::Float;
    v.width = 64;
    v.bits = std::bit_cast<uint64_t>(d);
    return v;
  }

  NumberValue v;
  v.kind = NumberValue::Int;
  std::string_view body = text;
  if (body.back() == 'U') {
    v.is_unsigned = true;
    body.remove_suffix(1);
  }
  unsigned base = 10;
  if (prefixed) {
    base = (body[1] == 'x' || body[1] == 'X') ? 16 : 2;
    body.remove_prefix(2);
  } else if (body.size() > 1 && body[0] == '0') {
    base = 8;
    body.remove_prefix(1);
  }
  if (body.empty()) {
    return bad("invalid integer literal");
  }
  for (char c : body) {
    if (digit_value(c) >= static_cast<int>(base)) {
      return bad("invalid digit in integer literal");
    }
  }
  if (!read_digits(body, base, v.bits)) {
    return bad("integer literal does not fit in 64 bits");
  }
  return v;
}

void negate(NumberValue& v) {
  if (v.kind == NumberValue::Int) {
    v.bits = uint64_t{0} - v.bits;
  } else if (v.kind == NumberValue::Float) {
    v.bits ^= v.width == 32 ? uint64_t{1} << 31 : uint64_t{1} << 63;
  }
}

std::string int_literal(int64_t value, bool is_unsigned) {
  if (is_unsigned) {
    return std::to_string(static_cast<uint64_t>(value)) + "U";
  }
  return signed_decimal(value);
}

std::string signed_decimal(int64_t value) {
  if (value < 0) {
    // INT64_MIN has no positive counterpart: go through the unsigned magnitude.
    std::string out(1, '-');
    out += std::to_string(uint64_t{0} - static_cast<uint64_t>(value));
    return out;
  }
  return std::to_string(value);
}

std::string float_literal(uint64_t bits, uint8_t width) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const int digits = width == 32 ? 8 : 16;
  std::string out(2 + static_cast<size_t>(digits), '0');
  out[1] = width == 32 ? 'f' : 'd';
  for (int i = 0; i < digits; ++i) {
    out[static_cast<size_t>(2 + i)] = kHex[(bits >> (4 * (digits - 1 - i))) & 0xF];
  }
  return out;
}

} // namespace volta::ptx::detail
