pattern p
  kind control
  forward 0x10
end
