pattern p
  kind control
  repeat 100001
    forward 1
  end
end
