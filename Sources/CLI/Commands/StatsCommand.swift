import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal stats`: a contribution-graph heatmap of your commits, with totals per project.
struct StatsCommand: Command {
  static let spec = CommandSpec(
    name: "stats", abstract: "Show a calendar heatmap of your commits, with totals per project.",
    usage: "stats [--weeks <n>] [--all-authors] [--host <name>]",
    options: [
      OptionSpec(name: .weeks, abstract: "How many weeks back, ending this week.", valueName: "n", defaultValue: "26"),
      OptionSpec(name: .allAuthors, abstract: "Count everyone's commits, not only yours."),
      OptionSpec(
        name: .host, abstract: "One machine's share only (journal.host; 'gitjournal doctor' lists them).",
        valueName: "name"),
    ],
    examples: ["gitjournal stats", "gitjournal stats --weeks 52"])

  let weeks: Int
  let allAuthors: Bool
  let host: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let text = arguments.value(.weeks) ?? "26"
    guard let weeks = Int(text), (1...520).contains(weeks) else {
      throw UsageError(message: "--weeks takes a number from 1 to 520, not '\(text)'", spec: Self.spec)
    }
    self.weeks = weeks
    allAuthors = arguments.has(.allAuthors)
    host = arguments.value(.host)
    if let host, !HostName.isValid(host) {
      throw UsageError(message: "--host takes a machine name as journal.host gives it, not '\(host)'", spec: Self.spec)
    }
    if host != nil && allAuthors {
      throw UsageError(message: "--host shows a machine's records, which hold your commits only", spec: Self.spec)
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let configuration = try Configuration.load(context.environment)
    if configuration.repositories.isEmpty { throw NoRepositoriesError(configPath: configuration.configPath) }
    let calendar = configuration.calendar
    let today = calendar.day(containing: context.environment.now())
    let firstMonday = Heatmap.monday(of: today).adding(days: -7 * (weeks - 1))
    // What the journal shows: every machine's records with what this one reads now.
    let journaling = Journaling(configuration: configuration, environment: context.environment)
    try journaling.checkHost(host)
    let (collected, skipped) =
      await journaling
      .current(from: firstMonday, through: today, policy: .fresh(allAuthors: allAuthors), host: host)
    for repository in skipped { context.standardError.line("warning: \(repository)") }

    let style = TerminalStyle(output: context.standardOutput, environment: context.environment)
    let facts = Dictionary(collected.days.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
    let heatmap = Heatmap(facts: facts, from: firstMonday, through: today)
    // COLUMNS first, as git and ls read it; then the terminal's own width; a pipe gets every week.
    let columns = context.environment.variables["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    context.standardOutput.write(heatmap.render(style: style, width: columns ?? context.standardOutput.terminalColumns))
    return skipped.isEmpty ? ExitStatus.success : ExitStatus.partial
  }
}

/// The picture `stats` draws: weeks as columns, weekdays as rows, darker for busier days.
struct Heatmap {
  let counts: [Day: Int]
  let projects: [(name: String, commits: Int, insertions: Int, deletions: Int)]
  let first: Day
  let last: Day

  init(facts: [Day: DayFacts], from first: Day, through last: Day) {
    self.first = first
    self.last = last
    counts = facts.mapValues(\.commitCount)
    var totals: [String: (Int, Int, Int)] = [:]
    for day in facts.values {
      for project in day.projects {
        let old = totals[project.name] ?? (0, 0, 0)
        totals[project.name] = (
          old.0 + project.commitCount, old.1 + project.stats.insertions, old.2 + project.stats.deletions
        )
      }
    }
    projects = totals.map { (name: $0.key, commits: $0.value.0, insertions: $0.value.1, deletions: $0.value.2) }
      .sorted { ($1.commits, $0.name) < ($0.commits, $1.name) }
  }

  /// The columns left of the grid: a weekday's name and its spacing.
  static let margin = 6

  /// The Monday on or before `day`.
  static func monday(of day: Day) -> Day {
    // 1970-01-05 was a Monday.
    let offset = ((Day(year: 1970, month: 1, day: 5).distance(to: day) % 7) + 7) % 7
    return day.adding(days: -offset)
  }

  /// 0 for no commits, else 1...4 by quartile of the busy days, so one huge day does not wash out the rest.
  func level(_ count: Int, thresholds: [Int]) -> Int {
    guard count > 0 else { return 0 }
    return 1 + thresholds.filter { count > $0 }.count
  }

  /// The picture and its totals. With a `width` (the terminal's), the grid fits it: a week takes two columns, or
  /// one when two do not fit, and when even one does not, the oldest weeks are left out of the picture (never out
  /// of the totals, which are said to cover the whole range).
  func render(style: TerminalStyle, width: Int? = nil) -> String {
    let busy = counts.values.filter { $0 > 0 }.sorted()
    let thresholds =
      busy.isEmpty ? [] : [busy[busy.count / 4], busy[busy.count / 2], busy[(busy.count * 3) / 4]]
    let allWeeks = first.distance(to: last) / 7 + 1
    let room = width.map { max(1, $0 - Self.margin) } ?? Int.max
    let cell = allWeeks * 2 <= room ? 2 : 1
    let weeks = min(allWeeks, room)
    let start = first.adding(days: 7 * (allWeeks - weeks))
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    var header = Array(repeating: Character(" "), count: weeks * cell)
    var lastMonth = 0
    var free = 0
    for week in 0..<weeks {
      let monday = start.adding(days: week * 7)
      let column = week * cell
      if monday.month != lastMonth && column + 3 <= header.count && column >= free {
        lastMonth = monday.month
        for (offset, character) in months[monday.month - 1].enumerated() { header[column + offset] = character }
        free = column + 4
      }
    }
    var lines = [String(repeating: " ", count: Self.margin) + String(header).trimmingTrailingSpaces()]
    let wide = style.isEnabled ? ["··", "██", "██", "██", "██"] : ["· ", "░░", "▒▒", "▓▓", "██"]
    let glyphs = wide.map { String($0.prefix(cell)) }
    let colors = [240, 22, 28, 34, 46]
    for (row, name) in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].enumerated() {
      var line = name + "   "
      for week in 0..<weeks {
        let day = start.adding(days: week * 7 + row)
        if day > last { break }
        let level = level(counts[day] ?? 0, thresholds: thresholds)
        line += style.color256(glyphs[level], colors[level])
      }
      lines.append(line.trimmingTrailingSpaces())
    }
    let legend = (0...4).map { style.color256(glyphs[$0], colors[$0]) }.joined()
    lines.append("      less " + legend + " more")
    if weeks < allWeeks {
      lines.append("      (the last \(weeks) of \(allWeeks) weeks shown)")
    }
    lines.append("")

    let total = counts.values.reduce(0, +)
    let streak = longestStreak()
    let activeDays = counts.values.filter { $0 > 0 }.count
    lines.append(
      style.bold(
        "\(total) \(total == 1 ? "commit" : "commits") on \(activeDays) of \(first.distance(to: last) + 1) days")
        + ", longest streak \(streak) \(streak == 1 ? "day" : "days")")
    if let busiest = counts.filter({ $0.value > 0 }).max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) {
      lines.append("busiest day: \(busiest.key), \(busiest.value) \(busiest.value == 1 ? "commit" : "commits")")
    }
    if !projects.isEmpty {
      lines.append("")
      let width = projects.map(\.name.count).max() ?? 0
      let most = projects.first?.commits ?? 1
      for project in projects {
        let bar = String(repeating: "■", count: max(1, project.commits * 20 / max(1, most)))
        let name = MarkdownText.terminalSafe(project.name)
        lines.append(
          name + String(repeating: " ", count: width - project.name.count + 2) + style.green(bar) + " "
            + "\(project.commits)  " + style.dim("+\(project.insertions) -\(project.deletions)"))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func longestStreak() -> Int {
    var best = 0
    var current = 0
    var day = first
    while day <= last {
      current = (counts[day] ?? 0) > 0 ? current + 1 : 0
      best = max(best, current)
      day = day.adding(days: 1)
    }
    return best
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
