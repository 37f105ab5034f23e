/// Why the server could not start (a port in use, no public directory, an unusable --record
/// directory): said to the user, who can fix it.
public struct ServerStartError: Error, CustomStringConvertible {
    public var description: String
}
