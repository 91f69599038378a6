import sys

def f():
  count = sys.stdin.readline().rstrip()
  second = count.find("B")
  if second > 0:
    count = count[:second - 1] + count[second + 1:]
  print(count)  # init


if __name__ == "__main__":
  f()
