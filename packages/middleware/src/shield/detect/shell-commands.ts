// The commands an injected shell line starts with. Our own list of what attackers run (recon,
// download, reverse shells, interpreters, file readers, privilege and persistence tools).

const words = (text: string) => new Set(text.trim().split(/\s+/))

/** Commands that are also everyday words: they count only right after a separator with an argument. */
export const AMBIGUOUS_COMMANDS = words(`
  time set find sort more less head tail date echo kill top file which who last man make touch
  id ps ls du df dir type start call copy move print exit help find test true false yes wait
  read tee join split paste look cut fold host dig ping mail cal bc at watch w su env export
  install view write script expect finger service wall logger format compress rename sg ed as ld
  ln cc run sort split locate update unique shred gunzip openssl groups options
  alias source eval exec trap nice screen column rev tr od xxd nl wc apt go node java ruby php
  perl python lua git run sleep login reset info mount free clear history pass open path
`)

export const UNIX_COMMANDS = new Set([
  ...AMBIGUOUS_COMMANDS,
  ...words(`
  sh bash zsh dash ksh csh tcsh fish ash busybox whoami uname ifconfig ip netstat ss nc ncat
  netcat socat telnet ssh scp sftp rsync ftp tftp curl wget lwp-download lwp-request fetch aria2c
  cat tac nl base32 base64 xxd hexdump strings awk gawk mawk nawk sed grep egrep fgrep rgrep
  chmod chown chgrp chattr lsattr passwd useradd usermod userdel adduser groupadd visudo sudo
  doas pkexec crontab systemctl service kill killall pkill nohup setsid strace ltrace gdb lldb
  perl5 python2 python3 ruby irb lua luajit node nodejs deno bun php5 php7 php8 tclsh wish
  expect rlwrap openssl gpg nmap masscan zmap tcpdump tshark iptables nft ufw mkfifo mknod
  rm rmdir mv cp ln mkdir dd shred truncate tar zip unzip gzip gunzip bzip2 xz 7z 7za unrar
  zcat bzcat xzcat zless zmore lsof fuser pgrep pstree uptime lastlog lastb faillog getent
  finger dmesg journalctl lsmod modprobe insmod rmmod sysctl hostname hostnamectl nslookup
  traceroute tracepath arp route iwconfig printenv chroot xargs readlink realpath stat
  locate updatedb vi vim nvim nano ed emacs pico view vimdiff diff cmp comm uniq shuf
  install runuser sg newgrp runcon timeout ionice taskset cpulimit flock setarch
  docker kubectl podman crictl ctr nsenter unshare capsh ansible ansible-console ansible-playbook
  ansible-vault chef-run puppet salt terraform aws gcloud az jq yq sqlite3 mysql psql mongo
  redis-cli htop atop iftop iotop nethogs perf valgrind rmt rmt-tar tmux byobu aa-disable
  aa-exec aa-status setfacl getfacl logger wall write mesg script scriptreplay sshpass
  xterm gcc cc clang g++ make cmake ld as objdump readelf nm php-cgi python3.10 python3.11
  python3.12 python3.9 python3.8 python2.7 perl5.36 ruby3.0 busybox toybox apt-get yum dnf
  pacman apk pip pip3 npm npx gem cargo composer go run-parts update-alternatives c89 c99 bridge
  cd column ansible iwmi comm aptitude cscli bsdtar ansible-config ansible-pull chef-shell aa-disable
  lastlogin rmt-dump trap ansible-doc ansible-galaxy ansible-inventory chef-vault chef-client cscli knife
  `),
])

export const WINDOWS_COMMANDS = words(`
  cmd powershell pwsh wscript cscript mshta rundll32 regsvr32 certutil bitsadmin reg regedit
  net net1 netsh sc schtasks wmic tasklist taskkill systeminfo ipconfig whoami nltest dsquery
  cacls icacls takeown attrib bcdedit bcdboot bootcfg vssadmin wevtutil fsutil diskpart format
  msiexec msbuild installutil regasm regsvcs odbcconf forfiles pcalua cmstp mavinject
  findstr xcopy robocopy del erase rd rmdir ren mklink runas shutdown logoff tscon qwinsta
  iwr iex irm sal curl.exe wget.exe certreq expand extrac32 makecab esentutl
`)
