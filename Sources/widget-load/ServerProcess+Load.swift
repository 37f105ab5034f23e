import LoopbackTools

extension ServerProcess {
    /// A `widget-server` started for one run on a free loopback port, stopped after it (so every
    /// run has a fresh server whose memory and CPU are the run's alone): no state file unless
    /// given, warnings only, its log on this process's stderr. `executable` nil: the one beside
    /// this executable. `launcher`: as `ServerProcess`'s (`CPUAffinity.launcher`).
    static func forRun(
        executable: String?, maxClients: Int, maxRooms: Int, publicDirectory: String?, stateFile: String? = nil,
        launcher: [String] = []
    ) throws -> ServerProcess {
        try ServerProcess(
            arguments: ["--max-clients", "\(maxClients)", "--max-rooms", "\(maxRooms)", "--log-level", "warning"]
                + (publicDirectory.map { ["--public", $0] } ?? []) + (stateFile.map { ["--state", $0] } ?? []),
            executable: executable ?? Products.path("widget-server"), collectsStandardError: false,
            launcher: launcher)
    }
}
