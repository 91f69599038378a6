import sys
def main():
  for digits in sys.stdin:
    top, acc = map(int, digits.split())
    cnt = top + acc
    print(len(str(cnt)))  # TODO
main()
