# Digit Number
import sys
num = [list(map(int,cnt.split())) for cnt in sys.stdin]
for f,b in num:
  print(len(str(f + b)))
