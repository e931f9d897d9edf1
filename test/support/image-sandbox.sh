#!/bin/sh
# One command of test/support/image-build.ts in a stage of the image, run inside a mount namespace of
# its own (`unshare --mount --propagation private`): the base image's directories (this machine's
# /usr, the base's /etc) bound read-only into the stage's root, then `chroot` there as the stage's
# user, in its WORKDIR. Nothing is mounted outside the namespace, which ends with the command.
#   image-sandbox.sh ROOT BASE BINDS CACHE WORKDIR UID:GID COMMAND...
# BINDS: `host:inside` pairs separated by `;` (node outside /usr, /bin when it is not a link);
# CACHE: `lower:upper:work` of npm's cache overlaid on the stage's /root/.npm, or empty.
set -eu
root="$1"; base="$2"; binds="$3"; cache="$4"; workdir="$5"; user="$6"; shift 6

bind_ro() { mount --rbind "$1" "$2"; mount -o remount,bind,ro "$2"; }

bind_ro /usr "$root/usr"
bind_ro "$base/etc" "$root/etc"
mount --rbind /dev "$root/dev"
mount --rbind /proc "$root/proc"
IFS=';'
for pair in $binds; do
  if [ -n "$pair" ]; then bind_ro "${pair%%:*}" "$root${pair#*:}"; fi
done
unset IFS
if [ -n "$cache" ]; then
  lower="${cache%%:*}"; rest="${cache#*:}"; upper="${rest%%:*}"; work="${rest#*:}"
  # No overlay (an older kernel, a file system that refuses it): npm fetches from the registry.
  mount -t overlay overlay -o "lowerdir=$lower,upperdir=$upper,workdir=$work" "$root/root/.npm" 2>/dev/null || true
fi
cd /
exec chroot --userspec="$user" "$root" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$workdir" "$@"
