import Testing

@testable import CLI

/// `journal.include` and `journal.exclude` patterns against repository folders.
@Suite struct PathGlobTests {
  func matches(_ pattern: String, _ path: String) throws -> Bool {
    try #require(PathGlob(pattern, home: "/home/me")).matches(path)
  }

  @Test func aPathCoversTheFoldersUnderIt() throws {
    #expect(try matches("~/code", "/home/me/code/app"))
    #expect(try matches("~/code/", "/home/me/code/group/tool"))
    #expect(try matches("~/code", "/home/me/code"))
    #expect(try !matches("~/code", "/home/me/codex/app"))
    #expect(try !matches("~/code", "/home/me"))
    #expect(try matches("~", "/home/me/anything"))
  }

  @Test func starsAndSets() throws {
    #expect(try matches("~/code/*", "/home/me/code/app"))
    #expect(try matches("~/code/*", "/home/me/code/group/tool"))
    #expect(try !matches("/srv/*/app", "/srv/a/b/app"))
    #expect(try matches("/srv/**/app", "/srv/a/b/app"))
    #expect(try matches("/srv/**/app", "/srv/app"))
    #expect(try matches("/srv/ap?", "/srv/app"))
    #expect(try !matches("/srv/ap?", "/srv/ap"))
    #expect(try matches("/srv/[a-c]pp", "/srv/bpp"))
    #expect(try !matches("/srv/[!a-c]pp", "/srv/bpp"))
    #expect(try matches("/srv/[x", "/srv/[x"))
  }

  @Test func aNameMatchesAnyFolderOnThePath() throws {
    #expect(try matches("*-scratch", "/home/me/code/try-scratch"))
    #expect(try matches("vendor", "/home/me/code/vendor/dep"))
    #expect(try !matches("vendor", "/home/me/code/vendors/dep"))
  }

  @Test func aRelativePathIsNoPattern() {
    #expect(PathGlob("code/app", home: "/home/me") == nil)
    #expect(PathGlob("", home: "/home/me") == nil)
  }
}
