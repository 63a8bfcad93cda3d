pattern p
  kind control
  wait 0
end
