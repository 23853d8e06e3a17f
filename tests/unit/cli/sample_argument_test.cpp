// SPDX-License-Identifier: MIT
// The file arguments of ministat and summary (cli/sample_inputs.h,
// parse_sample_argument): LABEL=PATH and PATH:N only where no file has the
// argument's whole name, in the order the header documents, and the labels
// refused because a report would print them.
#include "cli/sample_inputs.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace gfxstat::cli {
namespace {

class SampleArgument : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/gfxstat-sample-argument-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        for (const char* name : {"a.txt", "x=y.txt", "y.txt", "t:2", "k=v:3"}) std::ofstream(path(name)) << "1\n";
    }
    void TearDown() override {
        for (const char* name : {"a.txt", "x=y.txt", "y.txt", "t:2", "k=v:3"}) ::unlink(path(name).c_str());
        ::rmdir(dir_.c_str());
    }
    std::string path(const std::string& name) const { return dir_ + "/" + name; }
    std::string dir_;
};

void expect_input(const SampleInput& in, const std::string& path, const std::string& label,
                  std::optional<size_t> column) {
    EXPECT_EQ(in.path, path);
    EXPECT_EQ(in.name, path);
    EXPECT_EQ(in.label, label);
    EXPECT_EQ(in.column, column);
}

TEST_F(SampleArgument, PlainPaths) {
    expect_input(parse_sample_argument(path("a.txt")), path("a.txt"), "", std::nullopt);
    expect_input(parse_sample_argument("-"), "-", "", std::nullopt);
    // Nothing by that name and no other reading: the path as given, for
    // "cannot open" to name.
    expect_input(parse_sample_argument(path("missing.txt")), path("missing.txt"), "", std::nullopt);
    expect_input(parse_sample_argument(path("missing.txt:2")), path("missing.txt:2"), "", std::nullopt);
    expect_input(parse_sample_argument("old=" + path("missing.txt")), "old=" + path("missing.txt"), "",
                 std::nullopt);
}

TEST_F(SampleArgument, ExistingNamesWin) {
    // A file called "x=y.txt" is that file, though "y.txt" exists too.
    expect_input(parse_sample_argument(path("x=y.txt")), path("x=y.txt"), "", std::nullopt);
    expect_input(parse_sample_argument(path("t:2")), path("t:2"), "", std::nullopt);
    // ... and with a column after it.
    expect_input(parse_sample_argument(path("x=y.txt") + ":2"), path("x=y.txt"), "", 2);
}

TEST_F(SampleArgument, Labels) {
    expect_input(parse_sample_argument("old=" + path("a.txt")), path("a.txt"), "old", std::nullopt);
    expect_input(parse_sample_argument("old=-"), "-", "old", std::nullopt);
    // After the first '=': the label has no '=', the path may have one.
    expect_input(parse_sample_argument("new=" + path("x=y.txt")), path("x=y.txt"), "new", std::nullopt);
    expect_input(parse_sample_argument("drm-tip 6.9 (é)=" + path("a.txt")), path("a.txt"), "drm-tip 6.9 (é)",
                 std::nullopt);
}

TEST_F(SampleArgument, Columns) {
    expect_input(parse_sample_argument(path("a.txt") + ":2"), path("a.txt"), "", 2);
    expect_input(parse_sample_argument(path("a.txt") + ":1000000"), path("a.txt"), "", 1000000);
    expect_input(parse_sample_argument(path("a.txt") + ":007"), path("a.txt"), "", 7);
    expect_input(parse_sample_argument("-:3"), "-", "", 3);
    expect_input(parse_sample_argument("old=" + path("a.txt") + ":2"), path("a.txt"), "old", 2);
    // The last ':': a file whose name holds one takes a column too.
    expect_input(parse_sample_argument(path("t:2") + ":4"), path("t:2"), "", 4);
    expect_input(parse_sample_argument("z=" + path("k=v:3") + ":5"), path("k=v:3"), "z", 5);
    // Not a column: 0, past 1000000, not digits, nothing after ':'.
    for (const std::string tail : {":0", ":1000001", ":99999999999999999999999", ":2x", ":-1", ":"})
        expect_input(parse_sample_argument(path("a.txt") + tail), path("a.txt") + tail, "", std::nullopt);
}

TEST_F(SampleArgument, RefusedLabels) {
    const auto message = [](const std::string& arg) {
        try {
            parse_sample_argument(arg);
        } catch (const data::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string a = path("a.txt");
    EXPECT_EQ(message("=" + a), "=" + a + ": the label before '=' is empty");
    for (const std::string bad : {"a\x1b[2Jb", "tab\there", "new\nline", "del\x7f", "c1\xc2\x9b"})
        EXPECT_EQ(message(bad + "=" + a),
                  bad + "=" + a + ": the label holds a control character (labels are printed in reports)")
            << bad;
    // Refused only where the argument is read as LABEL=PATH.
    EXPECT_EQ(message("a\x1b=" + path("missing.txt")), "no error");
}

}  // namespace
}  // namespace gfxstat::cli
