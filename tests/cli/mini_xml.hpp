// A small strict reader of the XML the JUnit report uses (elements, attributes, text, the
// predefined and numeric character references, one XML declaration): enough to check that the
// file is well-formed and to look at its structure, without an XML library.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace volta::cli_test {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<XmlElement> children;
  std::string text; // the concatenated character data directly inside

  std::vector<const XmlElement*> all(const std::string& child) const;
  const XmlElement* first(const std::string& child) const;
  bool has(const std::string& attribute) const { return attributes.count(attribute) != 0; }
};

// The root element, or nullopt with `error` describing the first problem.
std::optional<XmlElement> parse_xml(const std::string& text, std::string& error);

} // namespace volta::cli_test
