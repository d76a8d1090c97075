import Config
import Cues
import Foundation
import TOMLConfig
import TOMLKit

/// Finds the catalog of a language: a file `LANGUAGE.toml` in the configured directory first (a
/// new language, or a wearer's own wording), else the English or German one built in.
public struct CueCatalogs: Sendable {
    /// The languages built into the binary (from `catalogs/*.toml`, embedded at build time).
    public static let builtIn: [String: [UInt8]] = ["en": PackageResources.en_toml, "de": PackageResources.de_toml]

    public let directory: String?

    public init(directory: String?) {
        self.directory = directory
    }

    /// The languages on offer, built in and in the directory.
    public func languages() -> [String] {
        var names = Set(Self.builtIn.keys)
        if let directory, let files = try? FileManager.default.contentsOfDirectory(atPath: directory) {
            for file in files where file.hasSuffix(".toml") { names.insert(String(file.dropLast(5))) }
        }
        return names.sorted()
    }

    /// The catalog for `language`; a missing language or a malformed catalog is a `ConfigError`
    /// naming the file and the key.
    public func catalog(_ language: String) throws(ConfigError) -> CueCatalog {
        if let directory {
            let path = (directory as NSString).appendingPathComponent("\(language).toml")
            if FileManager.default.fileExists(atPath: path) {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw .unreadable(path: path, reason: "cannot read the cue catalog")
                }
                return try Self.parse(String(decoding: data, as: UTF8.self), path: path)
            }
        }
        guard let bytes = Self.builtIn[language] else {
            throw .badValue(
                path: directory.map { "\($0)/\(language).toml" } ?? "[cues] language",
                key: "language",
                value: "\"\(language)\"",
                allowed: "a language with a catalog: \(languages().joined(separator: ", "))"
            )
        }
        return try Self.parse(String(decoding: bytes, as: UTF8.self), path: "built-in \(language).toml")
    }

    /// A catalog file's text, strictly: unknown keys and missing texts are refused.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> CueCatalog {
        let root: TOMLTable
        do {
            root = try TOMLDocument.parse(text, path: path)
        } catch let error as ConfigError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        let fields = TOMLFields(path: path)
        do {
            try fields.checkKeys(
                root,
                prefix: "",
                allowed: ["language", "voice", "decimal_separator", "separator", "ending", "words", "texts"]
            )
            guard let language = try fields.string(root, "language", "language"),
                let voice = try fields.string(root, "voice", "voice")
            else {
                throw ConfigError.badValue(path: path, key: "language", value: "nothing", allowed: "language and voice")
            }
            var words: [String: [String]] = [:]
            if let table = try fields.table(root, "words") {
                try fields.checkKeys(table, prefix: "words.", allowed: CueCatalog.requiredWords)
                for key in table.keys {
                    guard let array = table[key]?.array, array.count == 2,
                        let forms = Optional(array.compactMap { $0.string }), forms.count == 2
                    else {
                        throw ConfigError.badValue(
                            path: path,
                            key: "words.\(key)",
                            value: "\(table[key].map { "\($0)" } ?? "")",
                            allowed: "[singular, plural]"
                        )
                    }
                    words[key] = forms
                }
            }
            var texts: [String: String] = [:]
            if let table = try fields.table(root, "texts") {
                try fields.checkKeys(table, prefix: "texts.", allowed: CueCatalog.requiredTexts)
                for key in table.keys {
                    guard let value = try fields.string(table, "texts.\(key)", key) else { continue }
                    texts[key] = value
                }
            }
            return try CueCatalog(
                language: language,
                voice: voice,
                decimalSeparator: try fields.string(root, "decimal_separator", "decimal_separator") ?? ".",
                separator: try fields.string(root, "separator", "separator") ?? ", ",
                ending: try fields.string(root, "ending", "ending") ?? ".",
                words: words,
                texts: texts
            )
        } catch let error as ConfigError {
            throw error
        } catch let error as CatalogError {
            throw .badValue(path: path, key: "texts", value: "incomplete", allowed: error.description)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }
}
