import sys

def run():
  u = sys.stdin.readline().strip()
  print(u[::-1])


if __name__=="__main__":
  run()
