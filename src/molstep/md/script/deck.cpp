// SPDX-License-Identifier: MIT
#include "molstep/md/script/deck.hpp"

#include <cctype>

namespace molstep::md::script {

namespace {

// Length of the quote that opens at s[i] ("""" counts as three), or 0.
std::size_t quote_len(const std::string& s, std::size_t i) {
  if (s.compare(i, 3, "\"\"\"") == 0) return 3;
  return (s[i] == '"' || s[i] == '\'') ? 1 : 0;
}

std::string strip_comment(const std::string& line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (const std::size_t q = quote_len(line, i)) {
      const std::size_t close = line.find(line.substr(i, q), i + q);
      if (close == std::string::npos) return line;
      i = close + q - 1;
    } else if (line[i] == '#') {
      return line.substr(0, i);
    }
  }
  return line;
}

bool is_blank(const std::string& s) {
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

std::string substitute(const std::string& line, const Variables& vars, const ExpressionContext& ctx,
                       const SourceLoc& loc) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (const std::size_t q = quote_len(line, i)) {
      const std::size_t close = line.find(line.substr(i, q), i + q);
      const std::size_t end = close == std::string::npos ? line.size() : close + q;
      out += line.substr(i, end - i);
      i = end - 1;
      continue;
    }
    if (line[i] != '$') {
      out += line[i];
      continue;
    }
    if (i + 1 >= line.size()) throw Error(loc, "'$' at the end of the line: expected a variable name after it");
    std::string name;
    const char c = line[i + 1];
    if (c == '{' || c == '(') {
      const char closing = c == '{' ? '}' : ')';
      int depth = 0;
      std::size_t j = i + 1;
      for (; j < line.size(); ++j) {
        if (line[j] == c) ++depth;
        if (line[j] == closing && --depth == 0) break;
      }
      if (j >= line.size()) throw Error(loc, std::string("unterminated $") + c + ": expected '" + closing + "'");
      name = line.substr(i + 2, j - i - 2);
      i = j;
      if (c == '(') {
        try {
          out += format_immediate(evaluate(name, ctx));
        } catch (const Error& e) {
          throw Error(loc, e.message());
        }
        continue;
      }
    } else {
      name = std::string(1, c);
      i += 1;
    }
    std::optional<std::string> value;
    try {
      value = vars.text(name, ctx);
    } catch (const Error& e) {
      throw Error(loc, "variable " + name + ": " + e.message());
    }
    if (!value) throw Error(loc, "substitution of undefined variable '" + name + "'");
    out += *value;
  }
  return out;
}

std::vector<std::string> split_words(const std::string& line, const SourceLoc& loc) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size()) break;
    std::string word;
    if (const std::size_t q = quote_len(line, i)) {
      const std::string quote = line.substr(i, q);
      const std::size_t close = line.find(quote, i + q);
      if (close == std::string::npos) throw Error(loc, "unterminated quote " + quote);
      word = line.substr(i + q, close - i - q);
      i = close + q;
    } else {
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) word += line[i++];
    }
    words.push_back(std::move(word));
  }
  return words;
}

DeckReader::DeckReader(const std::filesystem::path& deck) { push(deck, nullptr); }

void DeckReader::push(const std::filesystem::path& path, const SourceLoc* from) {
  auto open = std::make_unique<Open>();
  open->path = path;
  open->in.open(path);
  if (!open->in) {
    const std::string what = "cannot open input deck '" + path.string() + "'";
    if (from) throw Error(*from, what);
    throw Error(what);
  }
  stack_.push_back(std::move(open));
}

void DeckReader::include(const std::string& file, const SourceLoc& from) {
  std::filesystem::path path(file);
  if (!std::filesystem::exists(path) && path.is_relative() && !stack_.empty()) {
    const auto beside = stack_.back()->path.parent_path() / path;
    if (std::filesystem::exists(beside)) path = beside;
  }
  if (stack_.size() > 32) throw Error(from, "include nested more than 32 deep (does '" + file + "' include itself?)");
  push(path, &from);
}

std::optional<Command> DeckReader::next(const Variables& vars, const ExpressionContext& ctx) {
  while (!stack_.empty()) {
    Open& top = *stack_.back();
    std::string raw;
    if (!std::getline(top.in, raw)) {
      stack_.pop_back();
      continue;
    }
    ++top.line;
    SourceLoc loc{top.path.string(), top.line};
    // A line ending in '&' continues on the next one.
    for (;;) {
      std::size_t end = raw.find_last_not_of(" \t\r");
      if (end == std::string::npos || raw[end] != '&') {
        if (!raw.empty() && raw.back() == '\r') raw.pop_back();
        break;
      }
      raw.erase(end);
      std::string more;
      if (!std::getline(top.in, more)) break;
      ++top.line;
      raw += " " + more;
    }
    const std::string code = strip_comment(raw);
    if (is_blank(code)) continue;
    Command cmd;
    cmd.loc = loc;
    cmd.text = substitute(code, vars, ctx, loc);
    auto words = split_words(cmd.text, loc);
    if (words.empty()) continue;
    cmd.name = words.front();
    cmd.args.assign(words.begin() + 1, words.end());
    return cmd;
  }
  return std::nullopt;
}

}  // namespace molstep::md::script
