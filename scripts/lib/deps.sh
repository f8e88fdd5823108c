# Shared by scripts/serve.sh and scripts/test.sh: installs Debian packages and finds Swift.
# Source it; it defines functions only.

# Installs the given Debian packages that are not installed yet (apt-get, sudo when not root).
install_apt_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  printf '== installing Debian packages: %s\n' "${missing[*]}" >&2
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The C libraries the package links against (its system-library targets).
build_packages=(libsqlite3-dev libpq-dev libssl-dev zlib1g-dev libpng-dev libturbojpeg0-dev libgif-dev libwebp-dev pkg-config libcurl4)

# Puts a Swift 6 toolchain on PATH (already there, or the usual /opt/swift install).
find_swift() {
  command -v swift >/dev/null 2>&1 && return 0
  [ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH && return 0
  echo "error: a Swift 6 toolchain is required (swift not on PATH)" >&2; exit 1
}
