import Foundation
import TOMLKit
import TodoCore

/// What `config.toml` sets: `$XDG_CONFIG_HOME/todo/config.toml`, else
/// `~/.config/todo/config.toml`. Missing, everything keeps its default.
///
///     [urgency]
///     due = 12.0
///     priority_high = 6.0
///     age_limit_days = 365
struct TodoConfig: Equatable {
    var weights = UrgencyWeights.taskwarrior

    /// The file for this user's environment.
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/todo/config.toml"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/todo/config.toml"
    }

    /// The config at `path`; the defaults if there is no such file.
    static func load(path: String = TodoConfig.path()) throws(ConfigError) -> TodoConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw ConfigError(path: path, "cannot be read: check its permissions") }
            return TodoConfig()
        }
        return try read(String(decoding: data, as: UTF8.self), path: path)
    }

    /// The config `text` says; `path` names the file in errors.
    static func read(_ text: String, path: String) throws(ConfigError) -> TodoConfig {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(path: path, "line \(error.source.begin.line): \(error.description)")
        } catch {
            throw ConfigError(path: path, "is not TOML: \(error)")
        }
        var config = TodoConfig()
        for key in table.keys where key != "urgency" {
            throw ConfigError(path: path, "has no setting '\(key)': the settings are in [urgency]")
        }
        guard let urgency = table["urgency"] else { return config }
        guard let weights = urgency.table else { throw ConfigError(path: path, "'urgency' must be a table: [urgency]") }
        let names = UrgencyWeights.names
        for key in weights.keys {
            let value = weights[key]
            if key == "age_limit_days" {
                guard let days = value?.int, days >= 1, days <= UrgencyWeights.longestAgeLimit else {
                    throw ConfigError(path: path, "urgency.age_limit_days must be a whole number of days, from 1 to \(UrgencyWeights.longestAgeLimit)")
                }
                config.weights.ageLimitDays = days
                continue
            }
            guard let weight = names.first(where: { $0.name == key })?.weight else {
                let known = (names.map(\.name) + ["age_limit_days"]).joined(separator: ", ")
                throw ConfigError(path: path, "urgency.\(key) is no weight: the weights are \(known)")
            }
            guard let number = value?.double ?? value?.int.map(Double.init), number.isFinite, abs(number) <= UrgencyWeights.largestWeight else {
                throw ConfigError(path: path, "urgency.\(key) must be a number between -1000 and 1000, such as 12.0")
            }
            config.weights[keyPath: weight] = number
        }
        return config
    }
}

/// A config file that cannot be used: which file, what is wrong, one line.
struct ConfigError: Error, Equatable, CustomStringConvertible {
    var path: String
    var problem: String

    init(path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    var description: String { "\(path) \(problem): fix it, or move it away to use the defaults" }
}
