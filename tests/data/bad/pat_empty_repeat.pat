pattern p
  kind control
  repeat 3
  end
  forward 1
end
