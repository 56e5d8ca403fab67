// Module directives, `.loc` mapping, pragmas, debug sections.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace volta::ptx {
namespace {

using testing::parse_ok;

TEST(Directives, Header) {
  Module m = parse_ok(".version 9.3\n.target sm_90a, texmode_independent\n.address_size 32\n");
  EXPECT_EQ(m.version_major, 9u);
  EXPECT_EQ(m.version_minor, 3u);
  EXPECT_EQ(m.targets, (std::vector<std::string>{"sm_90a", "texmode_independent"}));
  EXPECT_EQ(m.address_size, 32u);
  EXPECT_TRUE(m.items.empty());

  Module d = parse_ok(".version 7.0\n.target sm_70\n");
  EXPECT_EQ(d.address_size, 64u) << "the default";
  EXPECT_EQ(parse_ok(".version 9.0\n.target sm_80, debug\n").targets.back(), "debug");
}

TEST(Directives, ByteOrderMarkAndCrLf) {
  Module m = parse_ok("\xEF\xBB\xBF.version 8.0\r\n.target sm_80\r\n.visible .entry k()\r\n{\r\n"
                      "\t.loc 1 2 3\r\n\tret;\r\n}\r\n");
  EXPECT_EQ(m.version_major, 8u);
  const Function& k = testing::only_function(m);
  EXPECT_EQ(std::get<LocDirective>(k.body[0]).rest, "");
  EXPECT_EQ(std::get<Instruction>(k.body[1]).loc, (SourceLocation{6, 2}));
}

TEST(Directives, FilesKeptWithOptionalTimestampAndSize) {
  Module m = parse_ok(std::string(testing::kHeader) + R"(
	.file	1 "/tmp/hptx/a.cu"
	.file	2 "/usr/local/cuda/include/sm_30_intrinsics.hpp", 1700000000, 12345
)");
  ASSERT_EQ(m.items.size(), 2u);
  const auto& f1 = std::get<FileDirective>(m.items[0]);
  EXPECT_EQ(f1.index, 1u);
  EXPECT_EQ(f1.path, "/tmp/hptx/a.cu");
  EXPECT_FALSE(f1.timestamp);
  const auto& f2 = std::get<FileDirective>(m.items[1]);
  EXPECT_EQ(f2.timestamp, 1700000000u);
  EXPECT_EQ(f2.size, 12345u);
}

TEST(Directives, LocMapsEachInstructionToTheClosestPrecedingLoc) {
  Module m = parse_ok(std::string(testing::kHeader) + R"(
.func f()
{
	mov.u32 %r1, 1;
	.loc	1 6 0
	.loc	1 6 44
	ret;
}
.visible .entry k()
{
	add.s32 %r1, %r1, 1;
	.loc	1 10 3
	mad.lo.s32 	%r2, %r25, %r24, %r1;
	.loc	2 449 9, function_name $L__info_string0, inlined_at 1 18 5
	shfl.sync.bfly.b32 	%r37|%p4, %r33, %r35, %r34, %r36;
	.loc	1 0 3 // trailing comment
	{
	call.uni g, ();
	}
	ret;
}
	.file	1 "a.cu"
	.file	2 "b.hpp"
)");
  auto all = testing::instructions(m);
  ASSERT_EQ(all.size(), 7u);
  EXPECT_FALSE(all[0].debug_loc) << "before any .loc";
  EXPECT_EQ(all[1].debug_loc, (DebugLocation{1, 6, 44}));
  EXPECT_FALSE(all[2].debug_loc) << "a .loc does not leak into the next function";
  EXPECT_EQ(all[3].debug_loc, (DebugLocation{1, 10, 3}));
  EXPECT_EQ(all[4].debug_loc, (DebugLocation{2, 449, 9, 1, 18, 5})) << "inlined at a.cu:18";
  EXPECT_EQ(all[5].debug_loc, (DebugLocation{1, 0, 3})) << "inside a call scope too";
  EXPECT_EQ(all[6].debug_loc, (DebugLocation{1, 0, 3}));

  const Function& k = *m.find_function("k");
  std::vector<LocDirective> locs;
  for (const Statement& s : k.body) {
    if (const auto* l = std::get_if<LocDirective>(&s)) {
      locs.push_back(*l);
    }
  }
  ASSERT_EQ(locs.size(), 3u);
  EXPECT_EQ(locs[0].rest, "");
  EXPECT_EQ(locs[1].rest, ", function_name $L__info_string0, inlined_at 1 18 5");
  EXPECT_EQ(locs[2].rest, "") << "comments are not part of the directive";
  EXPECT_EQ(locs[1].loc.line, 17u);
}

TEST(Directives, NestedInlinesLeadToTheOutermostCall) {
  // nvcc's chain for __pipeline_memcpy_async: kernel line 7 calls b.h:103, which inlines c.h:292,
  // then c.h:219 and c.h:190; each `.loc` is inlined at the one before.
  Module m = parse_ok(std::string(testing::kHeader) + R"(
.visible .entry k()
{
	.loc	1 7 3
	.loc	2 103 9, function_name $L__info_string0, inlined_at 1 7 3
	.loc	3 292 5, function_name $L__info_string1, inlined_at 2 103 9
	.loc	3 219 9, function_name $L__info_string2, inlined_at 3 292 5
	.loc	3 190 23, function_name $L__info_string3, inlined_at 3 219 9
	mov.u32 %r1, 1;
	.loc	1 8 3
	.loc	3 219 9, function_name $L__info_string4, inlined_at 1 8 3
	mov.u32 %r1, 2;
	.loc	2 5 1, inlined_at 1 oops
	ret;
}
)");
  auto all = testing::instructions(m);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].debug_loc, (DebugLocation{3, 190, 23, 1, 7, 3}));
  EXPECT_EQ(all[1].debug_loc, (DebugLocation{3, 219, 9, 1, 8, 3})) << "the newest call wins";
  EXPECT_EQ(all[2].debug_loc, (DebugLocation{2, 5, 1})) << "a malformed inlined_at is ignored";
}

TEST(Directives, Pragmas) {
  Module m = parse_ok(std::string(testing::kHeader) + R"(.pragma "nounroll";
.visible .entry k()
{
$L__BB0_3:
	.pragma "nounroll";
	bra.uni $L__BB0_3;
}
)");
  ASSERT_EQ(m.items.size(), 2u);
  EXPECT_EQ(std::get<Pragma>(m.items[0]).text, "nounroll");
  const Function& k = testing::only_function(m);
  EXPECT_EQ(std::get<Pragma>(k.body[1]).text, "nounroll");
}

TEST(Directives, DebugSectionsAreKeptVerbatim) {
  std::string text = std::string(testing::kHeader) + R"(
.visible .entry k()
{
$L__func_begin0:
	ret;
$L__func_end0:
}
	.file	1 "a.cu"
	.section	.debug_str
	{
$L__info_string0:
.b8 95,90,78,51,49,95,73,0
	}
	.section	.debug_loc	{	}
	.section	.debug_info
	{
.b32 123 // a { brace in a comment
.b64 $L__func_begin0
.b8 0 /* } */
	}
)";
  Module m = parse_ok(text);
  ASSERT_EQ(m.debug_sections.size(), 3u);
  EXPECT_EQ(m.debug_sections[0].name, ".debug_str");
  EXPECT_EQ(m.debug_sections[0].body, "\n$L__info_string0:\n.b8 95,90,78,51,49,95,73,0\n\t");
  EXPECT_EQ(m.debug_sections[1].name, ".debug_loc");
  EXPECT_EQ(m.debug_sections[1].body, "\t");
  EXPECT_NE(m.debug_sections[2].body.find("/* } */"), std::string::npos);
  EXPECT_EQ(m.items.size(), 2u) << "the function and the .file";
  testing::expect_round_trip(text, "sections");
}

} // namespace
} // namespace volta::ptx
