import Foundation

#if FUZZING
import CLibFuzzer
#endif

/// libFuzzer calls one C function with bytes only, so the parser under test is chosen once per
/// process, from WEARBRIDGE_FUZZ_TARGET (scripts/rigs/fuzz.sh sets it).
let fuzzTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["WEARBRIDGE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(
            Data("WEARBRIDGE_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue))\n".utf8)
        )
        exit(64)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    fuzzTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if FUZZING
/// Under libFuzzer: its driver takes the command line (corpus directories, -max_total_time, ...).
@main
enum FuzzDriver {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })
    }
}
#else
/// Without libFuzzer (the ordinary build): `wearbridge-fuzz TARGET FILE|DIR...` runs kept inputs
/// (corpora, crashes found) through the same entry, so a fix is checked by the ordinary suite.
@main
enum ReplayInputs {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(
                Data(
                    "usage: wearbridge-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE|DIR...\n"
                        .utf8
                )
            )
            exit(64)
        }
        var inputs = 0
        for path in arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("wearbridge-fuzz: no such file \(path)\n".utf8))
                exit(66)
            }
            let files =
                isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { "\(path)/\($0)" }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target.run([UInt8](data))
                inputs += 1
            }
        }
        FileHandle.standardOutput.write(Data("\(target.rawValue): \(inputs) inputs ran without a crash\n".utf8))
    }
}
#endif
