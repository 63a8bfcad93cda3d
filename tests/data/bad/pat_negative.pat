pattern p
  kind control
  forward -1
end
