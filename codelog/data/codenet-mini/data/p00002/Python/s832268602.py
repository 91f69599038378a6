import sys

def main():
    for line in sys.stdin.readlines():
        A, B = [int(V) for V in line.split()]
        total = A + B
        print(len(str(total)))


main()
