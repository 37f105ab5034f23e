import Testing

@testable import ScrollServer

@Suite("Public directory lookup")
struct PublicDirectoryTests {
    @Test func besideTheExecutableComesFirst() throws {
        let found = try PublicDirectory.locate(executable: "/opt/app/widget-server", workingDirectory: "/home/u") { _ in
            true
        }
        #expect(found == "/opt/app/Public")
    }

    @Test func theWorkingDirectoryIsTheFallback() throws {
        let found = try PublicDirectory.locate(executable: "/opt/app/widget-server", workingDirectory: "/home/u") {
            $0 == "/home/u/Public"
        }
        #expect(found == "/home/u/Public")
    }

    @Test func nothingFoundNamesThePlacesAndTheOption() {
        #expect {
            try PublicDirectory.locate(executable: "/opt/app/widget-server", workingDirectory: "/home/u") { _ in false }
        } throws: { error in
            let text = "\(error)"
            return text.contains("/opt/app/Public") && text.contains("/home/u/Public") && text.contains("--public")
        }
    }

    @Test func oneCandidateWhenBothAreTheSame() {
        #expect(
            PublicDirectory.candidates(executable: "/srv/widget-server", workingDirectory: "/srv") == ["/srv/Public"])
    }
}
