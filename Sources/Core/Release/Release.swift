/// The released version of `wearbridge` and `wearbridge-phone`, as `--version` prints it.
///
/// `debian/changelog` names the same version for the packages; `scripts/build/package.sh` refuses to
/// build when the two disagree.
public enum Release {
    public static let version = "0.21.0"
}
