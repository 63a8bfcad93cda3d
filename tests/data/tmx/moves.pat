# A control pattern: castle_*.tmx keep this file as a reference (map property patterns).
pattern loop_ctl
  kind control
  forward 1
  right 90
  forward 1
end
