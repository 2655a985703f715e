/// Resolves the default cache root the way XDG tools do: `$PHOTOMIRROR_CACHE`, else
/// `$XDG_CACHE_HOME/photomirror`, else `~/.cache/photomirror`. Pure: the environment is passed in.
public enum CacheRoot {
    public static func resolve(explicit: String?, environment: [String: String]) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["PHOTOMIRROR_CACHE"], !path.isEmpty { return path }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/photomirror" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/photomirror" }
        return nil
    }
}
