pattern p
  kind control
  repeat 1000
    repeat 1000
      forward 1
    end
  end
end
