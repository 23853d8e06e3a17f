// SPDX-License-Identifier: MIT
#include "drivers/command_words.h"

#include <stdexcept>

namespace gfxstat::drivers {

std::vector<std::string> split_command_words(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
            ++i;
        } else if (c == '\'') {
            const size_t end = text.find('\'', i + 1);
            if (end == std::string_view::npos) throw std::invalid_argument("a ' is not closed");
            word.append(text.substr(i + 1, end - i - 1));
            in_word = true;
            i = end + 1;
        } else if (c == '"') {
            in_word = true;
            ++i;
            while (true) {
                if (i >= text.size()) throw std::invalid_argument("a \" is not closed");
                const char d = text[i];
                if (d == '"') {
                    ++i;
                    break;
                }
                // Inside double quotes a backslash escapes only what the
                // shell lets it: " \ $ `.
                if (d == '\\' && i + 1 < text.size() &&
                    (text[i + 1] == '"' || text[i + 1] == '\\' || text[i + 1] == '$' || text[i + 1] == '`')) {
                    word.push_back(text[i + 1]);
                    i += 2;
                } else {
                    word.push_back(d);
                    ++i;
                }
            }
        } else if (c == '\\') {
            if (i + 1 >= text.size()) throw std::invalid_argument("the command ends with a backslash");
            word.push_back(text[i + 1]);
            in_word = true;
            i += 2;
        } else {
            word.push_back(c);
            in_word = true;
            ++i;
        }
    }
    if (in_word) words.push_back(std::move(word));
    return words;
}

}  // namespace gfxstat::drivers
