# Volume 0 - 0002
import sys

def main():
    for line in sys.stdin:
        line = line.strip()
        if line=="":
            continue
        A, B = map(int, line.split(" "))
        print(len(str(A+B)), end="")


if __name__=="__main__":
    main()
