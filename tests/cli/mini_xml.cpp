#include "mini_xml.hpp"

#include <cctype>

namespace volta::cli_test {

std::vector<const XmlElement*> XmlElement::all(const std::string& child) const {
  std::vector<const XmlElement*> found;
  for (const auto& c : children) {
    if (c.name == child)
      found.push_back(&c);
  }
  return found;
}

const XmlElement* XmlElement::first(const std::string& child) const {
  for (const auto& c : children) {
    if (c.name == child)
      return &c;
  }
  return nullptr;
}

namespace {

class Reader {
public:
  explicit Reader(const std::string& text) : t_(text) {}

  std::optional<XmlElement> document(std::string& error) {
    if (t_.compare(0, 5, "<?xml") == 0) {
      const size_t end = t_.find("?>");
      if (end == std::string::npos)
        return fail(error, "unterminated XML declaration");
      p_ = end + 2;
    }
    skip_space();
    auto root = element(error);
    if (!root)
      return std::nullopt;
    skip_space();
    if (p_ != t_.size())
      return fail(error, "content after the root element");
    return root;
  }

private:
  std::optional<XmlElement> fail(std::string& error, const std::string& what) {
    if (error.empty())
      error = what + " at byte " + std::to_string(p_);
    return std::nullopt;
  }

  void skip_space() {
    while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_])))
      ++p_;
  }

  std::string name() {
    const size_t start = p_;
    while (p_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[p_])) || t_[p_] == '_' ||
                              t_[p_] == '-' || t_[p_] == ':' || t_[p_] == '.')) {
      ++p_;
    }
    return t_.substr(start, p_ - start);
  }

  // Character data up to `stop`, with references resolved; false on a bad reference or '<'.
  bool chars(char stop, std::string& out, std::string& error) {
    while (p_ < t_.size() && t_[p_] != stop) {
      const char c = t_[p_];
      if (c == '<') {
        if (stop == '<')
          break;
        fail(error, "'<' in an attribute value");
        return false;
      }
      if (c == '&') {
        const size_t semi = t_.find(';', p_);
        if (semi == std::string::npos) {
          fail(error, "unterminated reference");
          return false;
        }
        const std::string ref = t_.substr(p_ + 1, semi - p_ - 1);
        if (ref == "amp") {
          out += '&';
        } else if (ref == "lt") {
          out += '<';
        } else if (ref == "gt") {
          out += '>';
        } else if (ref == "quot") {
          out += '"';
        } else if (ref == "apos") {
          out += '\'';
        } else if (ref.size() > 1 && ref[0] == '#' &&
                   ref.find_first_not_of("0123456789", 1) == std::string::npos) {
          const long code = std::stol(ref.substr(1));
          if (code != 9 && code != 10 && code != 13 && code < 32) {
            fail(error, "reference to a character XML 1.0 forbids");
            return false;
          }
          if (code > 127) {
            fail(error, "non-ASCII numeric reference (not expected here)");
            return false;
          }
          out += static_cast<char>(code);
        } else {
          fail(error, "unknown reference &" + ref + ";");
          return false;
        }
        p_ = semi + 1;
        continue;
      }
      if (static_cast<unsigned char>(c) < 32 && c != '\t' && c != '\n' && c != '\r') {
        fail(error, "control character");
        return false;
      }
      out += c;
      ++p_;
    }
    return true;
  }

  std::optional<XmlElement> element(std::string& error) {
    if (p_ >= t_.size() || t_[p_] != '<')
      return fail(error, "expected '<'");
    ++p_;
    XmlElement e;
    e.name = name();
    if (e.name.empty())
      return fail(error, "expected an element name");
    for (;;) {
      skip_space();
      if (p_ >= t_.size())
        return fail(error, "unterminated start tag <" + e.name);
      if (t_.compare(p_, 2, "/>") == 0) {
        p_ += 2;
        return e;
      }
      if (t_[p_] == '>') {
        ++p_;
        break;
      }
      const std::string attr = name();
      if (attr.empty())
        return fail(error, "expected an attribute name in <" + e.name);
      skip_space();
      if (p_ >= t_.size() || t_[p_] != '=')
        return fail(error, "expected '=' after " + attr);
      ++p_;
      skip_space();
      if (p_ >= t_.size() || (t_[p_] != '"' && t_[p_] != '\''))
        return fail(error, "expected a quoted value");
      const char quote = t_[p_++];
      std::string value;
      if (!chars(quote, value, error))
        return std::nullopt;
      if (p_ >= t_.size())
        return fail(error, "unterminated attribute value");
      ++p_;
      if (!e.attributes.emplace(attr, value).second)
        return fail(error, "attribute " + attr + " given twice");
    }
    for (;;) {
      if (!chars('<', e.text, error))
        return std::nullopt;
      if (p_ >= t_.size())
        return fail(error, "unterminated element <" + e.name + ">");
      if (t_.compare(p_, 2, "</") == 0) {
        p_ += 2;
        const std::string closing = name();
        if (closing != e.name)
          return fail(error, "</" + closing + "> closes <" + e.name + ">");
        skip_space();
        if (p_ >= t_.size() || t_[p_] != '>')
          return fail(error, "expected '>'");
        ++p_;
        return e;
      }
      auto child = element(error);
      if (!child)
        return std::nullopt;
      e.children.push_back(std::move(*child));
    }
  }

  const std::string& t_;
  size_t p_ = 0;
};

} // namespace

std::optional<XmlElement> parse_xml(const std::string& text, std::string& error) {
  Reader reader(text);
  return reader.document(error);
}

} // namespace volta::cli_test
